/**
 * The contract scheduler: every poll it claims the followed contracts that are due (their lease
 * taken atomically, so two processes never check the same one) and checks them one after the
 * other, off every request path. It runs in the process that runs the deployment's once-only jobs
 * (the lead worker, server/quire.ts); a check left half-way by a stopped process is due again
 * when its lease runs out.
 */
import { perContext } from '../platform';
import { claimDue, scheduledCheck } from './follow';

interface SchedulerState {
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
  started: boolean;
}

const state = perContext((): SchedulerState => ({ timer: null, running: null, started: false }));

/** Checks every due contract once. */
async function runDue(onError: (error: unknown) => void): Promise<void> {
  const s = state();
  while (s.started) {
    const contract = await claimDue();
    if (!contract) return;
    // A failed check is recorded on the contract (last_status 'error') and tried next time.
    await scheduledCheck(contract).catch(onError);
  }
}

export function startContractScheduler(
  options: { pollMs?: number; onError?: (error: unknown) => void } = {},
): () => Promise<void> {
  const s = state();
  const pollMs = options.pollMs ?? 60_000;
  const onError = options.onError ?? (() => {});
  s.started = true;
  const tick = () => {
    if (!s.started || s.running) return;
    s.running = runDue(onError)
      .catch(onError)
      .finally(() => {
        s.running = null;
      });
  };
  s.timer = setInterval(tick, pollMs);
  s.timer.unref?.();
  tick();
  return async () => {
    s.started = false;
    if (s.timer) clearInterval(s.timer);
    s.timer = null;
    await s.running;
  };
}
