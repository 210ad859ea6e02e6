// What the dashboard's plain ES modules (public/*.js) see beyond the DOM, for `checkJs` (tsconfig.dashboard.json):
// the vendored scripts' globals, the page's own debugging handles, the board APIs Chromium has and lib.dom lacks,
// (the hub's protocol module, served at /protocol/ from shared/protocol's build, is mapped to its source there).

interface Window {
  /** mqtt.js's browser build (/vendor/mqtt.min.js) */
  mqtt: { connect(url: string, opts?: Record<string, unknown>): any };
  /** the page's link and voice, for tests and debugging in the console */
  cng: { link: any };
  cngVoice: any;
  /** @espruino-tools/core's browser build (/vendor/espruino-tools.min.js) */
  ESPT_core?: any;
}

interface Navigator {
  /** Web Bluetooth (Chromium, secure contexts) */
  bluetooth?: any;
  /** Web Serial (Chromium, secure contexts) */
  serial?: any;
}
