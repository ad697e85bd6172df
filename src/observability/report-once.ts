/**
 * A hook of the application's (a logger, a tracer, a metrics subscriber) that throws must not break the
 * client: the error is caught where the hook is called and reported here, once per hook, as a process warning
 * (`process.on('warning')` sees it; Node prints it to stderr). Later throws of the same hook are dropped, so a
 * broken logger cannot flood the output it was meant to keep.
 */

const reported = new WeakSet<object>();

/** Reports `error` from `hook` (named `what` in the warning) the first time that hook throws. */
export function reportHookError(hook: object, what: string, error: unknown): void {
  if (reported.has(hook)) return;
  reported.add(hook);
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  try {
    process.emitWarning(`${what} threw and was disabled from reporting further errors: ${detail}`, {
      code: 'TIDEMARK_HOOK_ERROR',
    });
  } catch {
    // A process.on('warning') listener that throws is the application's; nothing more can be reported.
  }
}
