import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { isCi } from '../support/global-setup.js';

/** The Debian package's binary; CHROMIUM_PATH points elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Why the browser suites cannot run, or null when they can. Under CI a missing Chromium fails the
 * run (`.ci/run` installs it); locally the suites are skipped, loudly.
 */
export function chromiumMissing(): string | null {
  if (existsSync(CHROMIUM_PATH)) return null;
  const why = `Chromium not found at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (isCi()) throw new Error(`CI needs Chromium for the browser suites: ${why}`);
  console.warn(`\nBrowser suites are SKIPPED locally: ${why}. Under CI=true this fails the run.\n`);
  return why;
}

/** A headless Chromium; the sandbox needs privileges a container often lacks. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
}
