// The page's parts and their sections, in reading order. Each section module exports
//   { num, id, params (hash schema entries), mount(ctx) → { el, dispose? } }.
// A part with no sections yet is left out of the page and its table of contents.
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
import kvShift from './17-kv-shift.js';
import microscope from './18-microscope.js';
import train from './19-train.js';

export const PARTS = [
  // The four articles' path: from why order is lost to RoPE and its relatives.
  { id: 'articles', sections: [order, naive, ladder, table, properties, shift, leak, pair, invariance,
    layouts, decay, scaling, attention, compare, multiaxis, speed] },
  // Real models: what breaks when a published model's encoding is ported.
  { id: 'models', sections: [kvShift, microscope] },
  // The training lab.
  { id: 'lab', sections: [train] },
];

export const SECTIONS = PARTS.flatMap((p) => p.sections);
