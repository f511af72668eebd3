// A Node program bundled into one file (esbuild --platform=node): prints the checks as JSON.
import { createPosenc } from '__POSENC__';
import { checks } from './checks.js';

checks(createPosenc).then((r) => console.log(JSON.stringify(r)));
