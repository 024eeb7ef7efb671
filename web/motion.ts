/**
 * Ant Design's opening and closing animations are off for browser tests only: test/e2e/helpers.ts
 * sets this flag in every page it opens (before any script runs), so no click lands on a menu or
 * dialog that is still moving. Both an automated browser (`navigator.webdriver`) and the flag are
 * needed: a person's browser never gets it. Imports nothing, so the test helper can share the name.
 */
export const MOTION_OFF_FLAG = '__quireMotionOff';

export function motionWanted(): boolean {
  const flag = (window as unknown as Record<string, unknown>)[MOTION_OFF_FLAG];
  return !(navigator.webdriver && flag === true);
}
