// The sixteen sections, in reading order. Each module exports
//   { num, id, params (hash schema entries), mount(ctx) → { el, dispose? } }.
import order from './01-order.js';
import naive from './02-naive.js';
import ladder from './03-ladder.js';
import table from './04-table.js';
import properties from './05-properties.js';
import shift from './06-shift.js';
import leak from './07-leak.js';
import pair from './08-pair.js';
import invariance from './09-invariance.js';
import layouts from './10-layouts.js';
import decay from './11-decay.js';
import scaling from './12-scaling.js';
import attention from './13-attention.js';
import compare from './14-compare.js';
import multiaxis from './15-multiaxis.js';
import speed from './16-speed.js';

export const SECTIONS = [order, naive, ladder, table, properties, shift, leak, pair, invariance,
  layouts, decay, scaling, attention, compare, multiaxis, speed];
