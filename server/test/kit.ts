/**
 * `@propsfeed/server/test-kit` (workspace only): the server's test kit for the benchmarks. An
 * app in-process on a board built by hand or on the simulated feed, the webhooks' real clock
 * for such an app, and a headless browser. It lives with the tests it serves, so server/src
 * never imports test code (.dependency-cruiser.cjs checks both).
 */
export { systemClock } from '../src/webhooks/clock';
export { buildSimApp } from './board-routes/simSetup';
export { buildTestApp } from './helpers/app';
export { buildBoard, type GameSpec, type PropSpec, TestBoardSource } from './helpers/board';
export { launchChromium } from './helpers/chromium';
