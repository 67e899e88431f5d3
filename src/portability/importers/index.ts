/**
 * Importers from other memory systems and chat exports, and the MCP memory graph exporter. Importers
 * are pure: they map parsed files to import units; `applyImport` writes the units through the engine.
 */
export {
  applyImport,
  emptyReport,
  countResult,
  skip,
  type ApplyOptions,
  type ImportReport,
  type ImportTarget,
  type VersionLedger,
} from './apply-import.js';
export {
  emptyUnit,
  type ImportContext,
  type ImportUnit,
  type PlannedMemory,
  type PlannedRelation,
  type SkippedRecord,
} from './import-plan.js';
export { resolveScope, valueSegment, placeholdersOf } from './scope-template.js';
export { chatgptUnits, CHATGPT_SYSTEM } from './chatgpt.js';
export { conversationList } from './conversation-units.js';
export { linesOf, requireShape, type FileFormat } from './file-shape.js';
export { claudeAiUnits, CLAUDE_AI_SYSTEM } from './claude-ai.js';
export { mem0List, mem0Units, MEM0_PLACEHOLDERS, MEM0_SYSTEM } from './mem0.js';
export { mcpMemoryUnit, parseMcpMemory, MCP_MEMORY_SYSTEM, type GraphEntity, type GraphRelation } from './mcp-memory.js';
export { exportMcpMemory, type McpMemoryExportReport } from './mcp-memory-export.js';
export { vaultUnits, VAULT_STYLES, type VaultFile, type VaultStyle } from './vault.js';
export { claudeCodePlaceholders, transcriptCwd, transcriptEntries } from './claude-code.js';
export { NO_TIME_REASON } from './source-time.js';
