import { strToU8, zipSync } from 'fflate';
import { Hono } from 'hono';
import type { AuthTables } from '../../../auth/tables.ts';
import { readNotificationPreferences, readPreferences } from '../../../commands/preferences/preference-store.ts';
import { listGoals } from '../../../../projections/goals/goal-queries.ts';
import { groupMembers, listGroupsPage } from '../../../../projections/groups/group-queries.ts';
import { listRuns, type RunCursor, type RunListRow } from '../../../../projections/runs/run-queries.ts';
import { listUserStakes } from '../../../../projections/stakes/stake-queries.ts';
import { GROUP_MEMBERS_MAX } from '../../../../domain/group/policy.ts';
import { writeGpx } from '../../../integrations/run-files/write-gpx.ts';
import type { AppDeps } from '../../app.ts';
import type { AppEnv } from '../../app-env.ts';
import { HttpError } from '../../errors.ts';
import { requireUser } from '../../middleware/require-user.ts';
import { goalHistoryJson } from '../goals-json.ts';
import { groupJson } from '../groups-json.ts';
import { exportedRun, readRecording } from '../run-files.ts';
import { runsJson } from '../runs-json.ts';
import { stakeJson } from '../stakes.ts';

/** Everything a user has is far below this many of each; a safety net, not a page size. */
const ALL = 100_000;
const PAGE = 100;

const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);

/**
 * "Download my data" (issue 24; GDPR art. 20, data portability): GET /me/export answers a zip with every run that
 * has a track as a GPX 1.1 file (runs/), every run's figures and verdict (runs.json), and the account, its goals,
 * stakes (amounts in cents), groups and preferences as JSON, each in the API's own shapes. Only the caller's own data:
 * every query is by the signed-in user. Counted in the `create` class: it reads everything the user has.
 */
export function dataExportRoutes(deps: AppDeps) {
  const guard = requireUser(deps.auth);
  const db = deps.database.db;
  const users = db.withTables<AuthTables>();
  return new Hono<AppEnv>().get('/me/export', guard, async (c) => {
    const userId = c.var.userId;
    const now = deps.clock.now();
    const account = await users
      .selectFrom('users')
      .select(['id', 'email', 'display_name', 'timezone', 'created_at'])
      .where('id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!account) throw new HttpError(404, 'User not found');

    const rows: RunListRow[] = [];
    let cursor: RunCursor | null = null;
    do {
      const page = await listRuns(db, userId, { limit: PAGE, cursor, since: null });
      rows.push(...page.runs);
      cursor = page.next;
    } while (cursor !== null && rows.length < ALL);
    const files: Record<string, Uint8Array> = {};
    for (const run of rows) {
      const exported = exportedRun(await readRecording(deps.store, run.id));
      if (!exported) continue;
      const day = new Date(exported.startedAtMs).toISOString().slice(0, 10);
      files[`runs/${day}-${run.id}.gpx`] = strToU8(writeGpx(exported));
    }

    const groups = [];
    let after = null;
    do {
      const page = await listGroupsPage(db, userId, { limit: PAGE, after });
      for (const g of page.rows) groups.push(groupJson(g, await groupMembers(db, g.id, GROUP_MEMBERS_MAX)));
      after = page.next;
    } while (after !== null && groups.length < ALL);

    files['account.json'] = json({
      id: account.id,
      email: account.email,
      display_name: account.display_name,
      timezone: account.timezone,
      created_at: new Date(account.created_at).toISOString(),
      exported_at: now.toISOString(),
    });
    files['runs.json'] = json(await runsJson(db, userId, rows));
    files['goals.json'] = json((await listGoals(db, userId, { limit: ALL })).map((g) => goalHistoryJson(g, now)));
    files['stakes.json'] = json((await listUserStakes(db, userId, { limit: ALL })).map((s) => stakeJson(s, now)));
    files['groups.json'] = json(groups);
    files['preferences.json'] = json({
      preferences: await readPreferences(db, userId),
      notifications: await readNotificationPreferences(db, userId),
    });
    const zip = zipSync(files, { level: 6, mtime: now });
    return c.body(zip, 200, {
      'content-type': 'application/zip',
      'content-disposition': `attachment; filename="stridestake-data-${now.toISOString().slice(0, 10)}.zip"`,
      'cache-control': 'private, no-store',
    });
  });
}
