/**
 * The bench's memory figures on real processes: a parent Node process with two idle Node
 * children, which map the same node binary and libraries. Counting each physical page once
 * (stackResident) must come out below Σ RSS, which counts those shared pages once per process,
 * and not below what the largest process alone holds. No figure is compared with a fixed size.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { startMemorySampler } from '../../scripts/bench/memorySampler';
import {
  processMemory,
  processTree,
  stackMemory,
  stackResident,
  treeMemory,
  treePss,
} from '../../scripts/bench/procstat';
import { memoryGoalCheck, type BenchReport } from '../../scripts/bench/report';

/** Starts two idle children and says "ready" on stdout once both are running. */
const PARENT = `
const { spawn } = require('node:child_process');
let up = 0;
for (let i = 0; i < 2; i++) {
  const child = spawn(process.execPath, ['-e', 'console.log("up"); setInterval(() => {}, 1e6)'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.once('data', () => { if (++up === 2) console.log('ready'); });
}
setInterval(() => {}, 1e6);
`;

let parent: ChildProcess;
let tree: number[] = [];

beforeAll(async () => {
  parent = spawn(process.execPath, ['-e', PARENT], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    parent.stdout!.once('data', () => resolve());
    parent.once('exit', (code) => reject(new Error(`the parent process exited (${code})`)));
  });
  tree = processTree(parent.pid!);
});

afterAll(() => {
  for (const pid of tree.reverse()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
});

test('the process tree is the parent and its two children', () => {
  expect(tree).toHaveLength(3);
  expect(tree[0]).toBe(parent.pid);
});

test('distinct resident pages: below Σ RSS (shared pages once), at least the largest process', () => {
  const resident = stackResident(parent.pid!);
  const summed = treeMemory(parent.pid!)!.rssMB;
  const largest = Math.max(...tree.map((pid) => processMemory(pid)!.rssMB));
  // Without CAP_SYS_ADMIN the kernel hides page frame numbers: the figure is then unavailable.
  if (resident === null) return;
  expect(resident).toBeLessThan(summed);
  expect(resident).toBeGreaterThan(largest * 0.9);
  // Two more Node processes share most of their pages with the first: well below Σ RSS.
  expect(resident).toBeLessThan(summed - largest * 0.5);
});

test('Σ PSS splits the shared pages: above zero, below Σ RSS', () => {
  const pss = treePss(parent.pid!);
  const memory = stackMemory(parent.pid!)!;
  expect(pss).toBeGreaterThan(0);
  expect(pss).toBeLessThan(memory.rssSumMB);
  expect(memory.pssMB).toBeGreaterThan(0);
});

test('the sampler process reads the tree and reports its peaks and their cost', async () => {
  const sampler = await startMemorySampler(parent.pid!);
  expect(sampler.pid).not.toBe(process.pid);
  const peaks = await sampler.stop();
  expect(peaks).not.toBeNull();
  // A reading when it starts and one when it stops.
  expect(peaks!.rssReadings).toBeGreaterThanOrEqual(2);
  expect(peaks!.residentReadings).toBeGreaterThanOrEqual(2);
  expect(peaks!.rssSumPeakMB).toBeGreaterThan(0);
  if (peaks!.residentPeakMB !== null)
    expect(peaks!.residentPeakMB).toBeLessThan(peaks!.rssSumPeakMB!);
  // Stopping again answers the same.
  expect(await sampler.stop()).toEqual(peaks);
});

test('the memory goal is checked on the whole-stack figure, on Σ RSS when that is unavailable', () => {
  const memory: BenchReport['memory'] = {
    serverRssAtRestMB: 260,
    serverRssAfterHttpMB: 300,
    serverPeakMB: 560,
    serverRssSampledPeakMB: 520,
    stackResidentJustStartedMB: 190,
    settleSec: 20,
    stackResidentAtRestMB: 170,
    stackResidentAfterHttpMB: 210,
    stackResidentPeakMB: 430,
    pssAtRestMB: 150,
    pssAfterHttpMB: 190,
    sampler: null,
  };
  expect(memoryGoalCheck(memory)).toEqual({
    figure: 'whole-stack resident',
    atRestMB: 170,
    peakMB: 430,
    atRestMet: true,
    peakMet: true,
  });
  expect(
    memoryGoalCheck({ ...memory, stackResidentAtRestMB: null, stackResidentPeakMB: null }),
  ).toEqual({ figure: 'Σ RSS', atRestMB: 260, peakMB: 560, atRestMet: false, peakMet: false });
});
