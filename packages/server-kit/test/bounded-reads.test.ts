import type { AddressInfo } from 'node:net';
import { Schema } from 'mongoose';
import { infrastructure, uniqueName } from '@crm/testing';
import { HTTP_MESSAGES, toHttpError } from '../src/errors';
import { createHttpApp } from '../src/http-app';
import { createLogger } from '../src/logger';
import { connectMongo, type MongoHandle } from '../src/service/mongo';

/**
 * Reads through a service's models carry the connection's time limit (`QUERY_MAX_TIME_MS`): the
 * server stops a read that runs past it, and the caller gets a 503 in Spanish. A limit of 5 ms over
 * an unindexed sort of 50 000 documents stands for a scan that outlives the gateway's wait.
 */
const logger = createLogger('server-kit-test', 'silent');
let mongo: MongoHandle;
const thingSchema = new Schema({ n: { type: Number, required: true }, text: String });
const thingModel = (handle: MongoHandle) => handle.connection.model('Thing', thingSchema);
let Thing: ReturnType<typeof thingModel>;

beforeAll(async () => {
  const { mongoUrl } = await infrastructure();
  mongo = connectMongo(mongoUrl, uniqueName('bounded_reads'), logger, { queryMaxTimeMs: 5 });
  await mongo.ready;
  Thing = thingModel(mongo);
  for (let batch = 0; batch < 10; batch++)
    await Thing.collection.insertMany(
      Array.from({ length: 5_000 }, (_, i) => ({ n: batch * 5_000 + i, text: 'x'.repeat(40) })),
    );
}, 60_000);

afterAll(async () => {
  await mongo?.connection.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

const timeLimitOf = (read: Promise<unknown>) =>
  read.then(
    () => undefined,
    (error: Error & { code?: number }) => ({
      code: error.code,
      http: toHttpError(error).toBody(),
      status: toHttpError(error).status,
    }),
  );

it('stops a sorted page, a count and an aggregation that run past the limit, as a 503', async () => {
  const expected = { code: 50, status: 503, http: { message: HTTP_MESSAGES.gatewayTimeout } };
  expect(await timeLimitOf(Thing.find().sort({ n: -1 }).limit(10).lean().exec())).toEqual(expected);
  expect(await timeLimitOf(Thing.countDocuments({ n: { $gte: 5 } }).exec())).toEqual(expected);
  expect(
    await timeLimitOf(Thing.aggregate([{ $match: { n: { $gte: 5 } } }, { $count: 'n' }]).exec()),
  ).toEqual(expected);
});

it('leaves a read that sets its own limit alone', async () => {
  const page = await Thing.find().sort({ n: -1 }).limit(3).maxTimeMS(60_000).lean();
  expect(page.map((thing) => thing.n)).toEqual([49_999, 49_998, 49_997]);
  expect(await Thing.countDocuments({ n: { $gte: 5 } }).maxTimeMS(0)).toBe(49_995);
});

it('answers the request with the Spanish 503', async () => {
  const app = createHttpApp({
    logger,
    readiness: [],
    routes: (router) => {
      router.get('/things', async (_req, res) => {
        res.json(await Thing.find().sort({ n: -1 }).limit(10).lean());
      });
    },
  });
  const server = app.listen(0);
  try {
    await new Promise((resolve) => server.once('listening', resolve));
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/things`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ message: HTTP_MESSAGES.gatewayTimeout });
  } finally {
    server.close();
  }
});
