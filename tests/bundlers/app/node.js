// A Node program bundled into one file (esbuild --platform=node): prints the checks as JSON.
import { createPosenc } from '__POSENC__';
import { createTrainer } from '__POSENC_TRAIN__';
import { checks } from './checks.js';

checks(createPosenc, createTrainer).then((r) => console.log(JSON.stringify(r)));
