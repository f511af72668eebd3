// The module worker of main.js: the same checks off the main thread.
import { createPosenc } from '__POSENC__';
import { checks } from './checks.js';

checks(createPosenc).then((r) => postMessage(r), (e) => postMessage({ error: String(e?.stack ?? e) }));
