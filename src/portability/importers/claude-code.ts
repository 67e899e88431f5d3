/**
 * Claude Code keeps each session's transcript in `~/.claude/projects/<project>/<session id>.jsonl`,
 * where `<project>` is the session's working directory with every `/` (and `.`) written as `-`. The
 * transcripts themselves are read and stored by the hooks' own code (`interfaces/hooks`); here only
 * what the import adds: the scope placeholders of a project folder.
 * - `{project}`: the folder name without its leading `-` (`-home-me-src-shop` → `home-me-src-shop`);
 * - `{dir}`: the last component of the working directory the session recorded (`cwd`), else the
 *   folder name's last `-`-separated part;
 * - `{session}`: the session id.
 * The values are returned as found: `resolveScope` redacts them, then makes each a scope segment.
 */

/** The `--scope-template` values of one session file. */
export function claudeCodePlaceholders(projectFolder: string, sessionId: string, cwd: string | undefined): Record<string, string> {
  const project = projectFolder.replace(/^-+/, '') || projectFolder;
  const fromCwd = cwd
    ?.replace(/[\\/]+$/, '')
    .split(/[\\/]/)
    .pop();
  const dir =
    fromCwd !== undefined && fromCwd !== ''
      ? fromCwd
      : (projectFolder
          .split('-')
          .filter((p) => p !== '')
          .pop() ?? project);
  return { project, dir, session: sessionId };
}

/** The working directory a transcript records (the first entry with a `cwd`), if any. */
export function transcriptCwd(text: string): string | undefined {
  for (const line of text.split('\n', 200)) {
    if (!line.includes('"cwd"')) continue;
    try {
      const entry = JSON.parse(line) as { cwd?: unknown };
      if (typeof entry.cwd === 'string' && entry.cwd !== '') return entry.cwd;
    } catch {
      // a partial line: look further
    }
  }
  return undefined;
}

/** How many lines of a transcript are JSON entries (turns and everything else). */
export function transcriptEntries(text: string): number {
  let count = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      JSON.parse(line);
      count += 1;
    } catch {
      // not an entry: the hooks skip it too
    }
  }
  return count;
}
