/**
 * The JSON Claude Code sends a hook command on stdin (see test/fixtures/claude-code/ for real shapes).
 * Common fields: session_id, transcript_path, cwd, hook_event_name (and permission_mode); SessionStart
 * adds `source` (startup, resume, clear, compact), UserPromptSubmit `prompt`, Stop `stop_hook_active`,
 * PreCompact `trigger` (manual, auto) and `custom_instructions`, SessionEnd `reason`. Unknown fields
 * (e.g. SessionStart's `model`) are ignored. Checked by hand,
 * not with zod, so a hook that only talks to a server loads as little as possible.
 */
import { EngramError } from '../../core/errors.js';

export interface HookInput {
  session_id: string;
  transcript_path?: string;
  cwd?: string;
  hook_event_name?: string;
  prompt?: string;
  stop_hook_active?: boolean;
  reason?: string;
  /** SessionStart: how the session began (startup, resume, clear, compact). */
  source?: string;
  /** PreCompact: manual or auto. */
  trigger?: string;
}

const OPTIONAL_STRINGS = ['transcript_path', 'cwd', 'hook_event_name', 'prompt', 'reason', 'permission_mode', 'source', 'trigger'] as const;

/** Parses the hook's stdin; throws `INVALID_INPUT` naming what is wrong. */
export function parseHookInput(text: string): HookInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new EngramError(
      'INVALID_INPUT',
      'The hook expects the JSON Claude Code sends on stdin ({"session_id", "transcript_path", "hook_event_name", ...}); stdin was not JSON.',
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new EngramError(
      'INVALID_INPUT',
      'The hook input must be a JSON object like {"session_id": "...", "transcript_path": "...", "hook_event_name": "..."}.',
    );
  }
  const input = value as Record<string, unknown>;
  if (typeof input.session_id !== 'string' || input.session_id.length === 0 || input.session_id.length > 500) {
    throw new EngramError(
      'INVALID_INPUT',
      'The hook input has no "session_id" (a non-empty string): is this command run by a Claude Code hook?',
    );
  }
  for (const field of OPTIONAL_STRINGS) {
    if (input[field] !== undefined && typeof input[field] !== 'string') {
      throw new EngramError('INVALID_INPUT', `The hook input field "${field}" must be a string.`);
    }
  }
  return {
    session_id: input.session_id,
    ...(typeof input.transcript_path === 'string' ? { transcript_path: input.transcript_path } : {}),
    ...(typeof input.cwd === 'string' ? { cwd: input.cwd } : {}),
    ...(typeof input.hook_event_name === 'string' ? { hook_event_name: input.hook_event_name } : {}),
    ...(typeof input.prompt === 'string' ? { prompt: input.prompt } : {}),
    ...(typeof input.stop_hook_active === 'boolean' ? { stop_hook_active: input.stop_hook_active } : {}),
    ...(typeof input.reason === 'string' ? { reason: input.reason } : {}),
    ...(typeof input.source === 'string' ? { source: input.source } : {}),
    ...(typeof input.trigger === 'string' ? { trigger: input.trigger } : {}),
  };
}
