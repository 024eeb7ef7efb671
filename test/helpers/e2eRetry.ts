/**
 * Browser tests click through animated Ant Design menus and dialogs on a 2-core machine shared
 * with the rest of the suite; a click can land mid-animation and be lost. Such a failed browser
 * test is run again (at most twice, its first error logged), so the run reports real breakage
 * rather than timing. Assertions are untouched; API, model and realtime suites never retry.
 */
import { expect, jest } from '@jest/globals';

if (/[\\/]test[\\/]e2e[\\/]/.test(expect.getState().testPath ?? '')) {
  jest.retryTimes(2, { logErrorsBeforeRetry: true });
}
