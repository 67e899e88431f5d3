/** Markdown export and import of a scope (seed 003's shared-vs-user layout). */
export { exportMarkdown, fileOf, MARKDOWN_FILES, SCHEMA_FILE, type MarkdownFiles } from './export.js';
export { importMarkdown, type MarkdownImportReport } from './import.js';
export { parseEntries, renderEntry, type ParsedEntry } from './format.js';
