/** Debian's headless Chromium for the tests that need a real browser (no browser download is possible here). */
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Headless, sandbox off, no background traffic; `args` adds flags (e.g. --host-resolver-rules). */
export function launchChromium(args: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', ...args],
  });
}
