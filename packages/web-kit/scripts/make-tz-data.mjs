/**
 * Writes src/time/tz-atlantic-canary.json: the moment-timezone data of the one zone the apps use
 * (Atlantic/Canary, the centre's clock), packed and cut to 2020-2045, so the bundle carries a few hundred
 * bytes instead of every zone. Run again when moment-timezone's data changes:
 *   node packages/web-kit/scripts/make-tz-data.mjs
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const moment = require('moment-timezone/moment-timezone-utils');
const latest = require('moment-timezone/data/packed/latest.json');

moment.tz.load(latest);
const zone = moment.tz.zone('Atlantic/Canary');
const unpacked = {
  name: zone.name,
  abbrs: zone.abbrs,
  untils: zone.untils,
  offsets: zone.offsets,
  population: zone.population,
};
const filtered = moment.tz.filterYears(unpacked, 2020, 2045);
const data = { version: latest.version, zones: [moment.tz.pack(filtered)], links: [] };
const out = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'src',
  'time',
  'tz-atlantic-canary.json',
);
fs.writeFileSync(out, JSON.stringify(data, null, 2) + '\n');
console.log(`wrote ${out} (tz data ${latest.version})`);
