// OpenMemory's JavaScript package (openmemory-js). The only version the npm registry serves here, 0.3.0,
// is a thin fetch client of the OpenMemory backend server (`new OpenMemory({ baseUrl })`, default
// http://localhost:8080, routes /memory/add and /memory/query); the server itself is not published on npm
// (it runs from the project's source tree or its Docker image), and the later openmemory-js versions that
// embed the engine in-process (1.x, `new Memory()`) are not served (npm answers 404). So there is no
// OpenMemory engine this benchmark can install and start offline: the package is installed and inspected,
// and the run reports it as skipped with that reason instead of measuring a server that is not there.
import { SkipError } from '../skip-error.mjs';

export const system = {
  name: 'openmemory',
  package: 'openmemory-js',
  embeds: '-',
  /** @param {import('../../peers.mjs').OpenContext} ctx */
  async open(ctx) {
    const version = ctx.versionOf('openmemory-js');
    const exported = Object.keys(await import('openmemory-js'));
    if (exported.includes('Memory'))
      throw new SkipError(
        `openmemory-js@${version} exports an in-process engine (Memory), which this benchmark has no adapter for yet; add one in bench/peers/systems/openmemory.mjs`,
      );
    throw new SkipError(
      `openmemory-js@${version} (the only version npm serves here) is an HTTP client of the OpenMemory backend server (exports ${exported
        .filter((n) => n !== 'default' && n !== '__esModule')
        .join(
          ', ',
        )}; default baseUrl http://localhost:8080), and that server is not published on npm, so there is no OpenMemory engine to run offline`,
    );
  },
};
