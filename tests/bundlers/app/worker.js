// The module worker of main.js: the same checks off the main thread.
import { createPosenc } from '__POSENC__';
import { createTrainer } from '__POSENC_TRAIN__';
import { checks } from './checks.js';

checks(createPosenc, createTrainer).then((r) => postMessage(r), (e) => postMessage({ error: String(e?.stack ?? e) }));
