/**
 * The queries a call issues (mongoose's debug hook sees every collection method of every service
 * in this process) and the plans of the wasteful ones: `explain('executionStats')` on each distinct
 * read query, kept when it examined at least ten times the documents it returned. FerretDB 1.24
 * answers explain with its own shape (no executionStats): then what it gives is summarised.
 */
import mongoose from 'mongoose';

export interface Captured {
  db: string;
  collection: string;
  method: string;
  args: unknown[];
}

export interface PlanSummary {
  query: string;
  summary: string;
}

let sink: Captured[] | undefined;
mongoose.set(
  'debug',
  function (this: { conn?: { name?: string } }, collection: string, method: string, ...args: unknown[]) {
    sink?.push({ db: this?.conn?.name ?? '', collection, method, args });
  },
);

export async function capture<T>(work: () => Promise<T>): Promise<{ result: T; queries: Captured[] }> {
  const queries: Captured[] = [];
  sink = queries;
  try {
    return { result: await work(), queries };
  } finally {
    sink = undefined;
  }
}

const READS = new Set(['find', 'findOne', 'countDocuments', 'aggregate']);
const short = (value: unknown) => JSON.stringify(value).slice(0, 220);

function stagesOf(plan: unknown): string[] {
  const out: string[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (typeof n.stage === 'string') out.push(n.indexName ? `${n.stage}(${String(n.indexName)})` : n.stage);
    for (const key of ['inputStage', 'queryPlan']) walk(n[key]);
    if (Array.isArray(n.inputStages)) n.inputStages.forEach(walk);
  };
  walk(plan);
  return out;
}

export async function explainSlow(mongoUrl: string, queries: Captured[]): Promise<PlanSummary[]> {
  const client = new mongoose.mongo.MongoClient(mongoUrl);
  const seen = new Set<string>();
  const out: PlanSummary[] = [];
  try {
    for (const q of queries) {
      if (!READS.has(q.method) || !q.db) continue;
      const key = `${q.db}.${q.collection}.${q.method}.${short(q.args)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const collection = client.db(q.db).collection(q.collection);
      const [first, options] = q.args as [Record<string, unknown>, Record<string, unknown> | undefined];
      let explained: Record<string, unknown>;
      try {
        if (q.method === 'aggregate')
          explained = await collection.aggregate(first as unknown as object[]).explain('executionStats');
        else if (q.method === 'countDocuments')
          explained = await collection
            .aggregate([{ $match: first ?? {} }, { $group: { _id: 1, n: { $sum: 1 } } }])
            .explain('executionStats');
        else {
          const o = options ?? {};
          let cursor = collection.find(first ?? {});
          if (o.sort) cursor = cursor.sort(o.sort as never);
          if (typeof o.skip === 'number') cursor = cursor.skip(o.skip);
          if (typeof o.limit === 'number') cursor = cursor.limit(o.limit);
          else if (q.method === 'findOne') cursor = cursor.limit(1);
          if (o.projection) cursor = cursor.project(o.projection as never);
          explained = await cursor.explain('executionStats');
        }
      } catch (error) {
        out.push({
          query: `${q.collection}.${q.method} ${short(q.args)}`,
          summary: `explain failed: ${(error as Error).message}`,
        });
        continue;
      }
      const stats = (explained.executionStats ??
        (
          (explained.stages as Array<Record<string, unknown>> | undefined)?.[0]?.$cursor as
            Record<string, unknown> | undefined
        )?.executionStats) as Record<string, number> | undefined;
      const query = `${q.db.replace(/^.*_/, '')}.${q.collection}.${q.method} ${short(q.args)}`;
      if (stats && typeof stats.totalDocsExamined === 'number') {
        const returned = stats.nReturned ?? 0;
        const examined = Math.max(stats.totalDocsExamined, stats.totalKeysExamined ?? 0);
        if (examined < 10 * Math.max(1, returned)) continue;
        const planner = (explained.queryPlanner ??
          (
            (explained.stages as Array<Record<string, unknown>> | undefined)?.[0]?.$cursor as
              Record<string, unknown> | undefined
          )?.queryPlanner) as Record<string, unknown> | undefined;
        out.push({
          query,
          summary: `${stagesOf(planner?.winningPlan).join(' ← ') || 'plan n/a'}; docs examined ${stats.totalDocsExamined}, keys ${stats.totalKeysExamined ?? 'n/a'}, returned ${returned}, ${stats.executionTimeMillis ?? '?'} ms`,
        });
      } else {
        // FerretDB: no execution statistics; its pushdown flags and the PostgreSQL plan's top node.
        const planner = explained.queryPlanner as Record<string, unknown> | undefined;
        const pg = JSON.stringify(planner?.Plan ?? planner ?? explained);
        const node = /"Node Type":"([^"]+)"/.exec(pg)?.[1];
        const relation = /"Index Name":"([^"]+)"/.exec(pg)?.[1];
        const rows = /"Plan Rows":(\d+)/.exec(pg)?.[1];
        out.push({
          query,
          summary: `FerretDB: filter pushdown ${String(explained.filterPushdown ?? explained.pushdown ?? '?')}, sort pushdown ${String(explained.sortPushdown ?? '?')}, limit pushdown ${String(explained.limitPushdown ?? '?')}; PostgreSQL ${node ?? '?'}${relation ? ` on ${relation}` : ''}, estimated rows ${rows ?? '?'}`,
        });
      }
    }
  } finally {
    await client.close();
  }
  return out;
}
