import type { Truth } from './reconcile-data.js';
import type { MonthKnobs } from './reconcile-knobs.js';
export function fileMonth(_knobs: Partial<MonthKnobs>, _seed: number): Truth {
  throw new Error('generator B not merged yet');
}
