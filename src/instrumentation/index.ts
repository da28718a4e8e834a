export { instrumentHandler } from './instrument-handler.js';
export type { InstrumentationOptions } from './instrument-handler.js';
