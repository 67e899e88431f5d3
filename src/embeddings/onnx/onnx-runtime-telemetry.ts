/**
 * Keeps onnxruntime's telemetry off in this process. onnxruntime-node 1.29+ starts a telemetry client
 * on Linux and macOS when it creates its environment (the process's first session): it uploads events
 * over HTTPS, keeps a device id on disk, runs `blkid; hostname` in a shell, and matches a backtracking
 * `std::regex` over the whole of `/proc/self/cmdline`, one stack frame cycle per character up to the
 * first newline. A command line of ~30,000 characters (`engram remember "$(cat notes.md)"`) overflows
 * the main thread's 8 MB stack there (SIGSEGV). `ORT_DISABLE_TELEMETRY=1`, read when the environment
 * is created, skips all of it; Engram promises to run locally with no network anyway.
 *
 * The variable is set on the calling thread's `process.env`, which is the process's environment on the
 * main thread; a worker thread's `process.env` is its own copy, so whoever starts embedding workers
 * calls this first. A value the user set (even `0`) is kept.
 *
 * @example
 * ```ts
 * disableOnnxRuntimeTelemetry();
 * const ort = await import('onnxruntime-node');
 * ```
 */
export function disableOnnxRuntimeTelemetry(env: Record<string, string | undefined> = process.env): void {
  env.ORT_DISABLE_TELEMETRY ??= '1';
}
