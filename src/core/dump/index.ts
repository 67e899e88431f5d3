/** The lossless dump (`engram export jsonl` / `import jsonl`): format, writer, reader. */
export {
  DUMP_FORMAT,
  DUMP_VERSION,
  DUMP_KINDS,
  canonicalJson,
  dumpJsonSchema,
  dumpHeaderSchema,
  dumpLineSchema,
  type DumpHeader,
  type DumpKind,
  type DumpLine,
} from './dump-format.js';
export { exportDump, type DumpSource, type ExportDumpOptions } from './export-dump.js';
export {
  importDump,
  readDumpHeader,
  type DumpImportCounts,
  type DumpImportKind,
  type DumpImportReport,
  type ImportDumpDeps,
  type ImportDumpOptions,
} from './import-dump.js';
export { splitLines, MAX_DUMP_LINE, type NumberedLine } from './dump-lines.js';
