/**
 * `tidemark acls list|create|delete`, `tidemark users` and `tidemark quotas`: the table shows the bindings,
 * credentials and quotas, and `--json` equals what the admin API returns for the same request. ACLs run on an
 * authorizer-enabled 4.4 broker as the super user `admin`; users and quotas on the shared 4.4 broker.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../src/client.js';
import { bootstrap, SASL_ADMIN_PASSWORD, SASL_ADMIN_USERNAME } from '../../harness/context.js';
import { DEFAULT_KAFKA_VERSION } from '../../harness/versions.js';
import { runCli } from '../../unit/cli/capture.js';
import { tableRows } from '../cli/setup.js';
import { ADMIN_SASL, type AuthzBroker, startAuthzBroker } from './authz-broker.js';
import { eventually } from './settle.js';

describe('tidemark acls', () => {
  let broker: AuthzBroker;
  let admin: Client;
  beforeAll(async () => {
    broker = await startAuthzBroker(DEFAULT_KAFKA_VERSION);
    admin = new Client({ bootstrap: broker.saslBootstrap, sasl: ADMIN_SASL });
  }, 240_000);
  afterAll(async () => {
    await admin?.close();
    await broker?.stop();
  });

  const acls = (argv: string[]) =>
    runCli(
      [
        'acls',
        ...argv,
        '--bootstrap',
        broker.saslBootstrap,
        '--sasl-mechanism',
        'SCRAM-SHA-512',
        '--sasl-username',
        SASL_ADMIN_USERNAME,
      ],
      { env: { TIDEMARK_SASL_PASSWORD: SASL_ADMIN_PASSWORD } },
    );

  it('create, list and delete print tables; --json equals the API results', async () => {
    const principal = `User:cli-${randomUUID().slice(0, 8)}`;
    const topic = `cli-acl-${randomUUID().slice(0, 8)}`;
    const flags = ['--resource-type', 'topic', '--resource-name', topic, '--principal', principal];
    const created = await acls(['create', ...flags, '--operation', 'read', '--operation', 'DESCRIBE', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const createdJson = JSON.parse(created.stdout);
    expect(createdJson).toHaveLength(2);
    expect(createdJson[0]).toEqual({
      resourceType: 'TOPIC',
      resourceName: topic,
      patternType: 'LITERAL',
      principal,
      host: '*',
      operation: 'READ',
      permission: 'ALLOW',
    });

    const listed = await acls(['list', '--principal', principal]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(
      /RESOURCE-TYPE\s+RESOURCE-NAME\s+PATTERN\s+PRINCIPAL\s+HOST\s+OPERATION\s+PERMISSION/,
    );
    expect(tableRows(listed.stdout, 'TOPIC').sort()).toEqual([
      ['TOPIC', topic, 'LITERAL', principal, '*', 'DESCRIBE', 'ALLOW'],
      ['TOPIC', topic, 'LITERAL', principal, '*', 'READ', 'ALLOW'],
    ]);
    const listedJson = JSON.parse((await acls(['list', '--principal', principal, '--json'])).stdout);
    expect(listedJson).toEqual(await admin.acls.describeAcls({ principal }));

    const refused = await acls(['delete']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/at least one filter flag/);
    const badName = await acls(['list', '--operation', 'reed']);
    expect(badName.code).toBe(2);
    expect(badName.stderr).toMatch(/--operation expects one of/);

    const deleted = await acls(['delete', '--principal', principal, '--operation', 'read', '--json']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual([createdJson[0]]);
    expect(await admin.acls.describeAcls({ principal })).toEqual([createdJson[1]]);
  });
});

describe('tidemark users and quotas', () => {
  let client: Client;
  beforeAll(() => {
    client = new Client({ bootstrap: bootstrap() });
  });
  afterAll(async () => {
    await client?.close();
  });
  const cli = (argv: string[], env: Record<string, string> = {}) =>
    runCli([...argv, '--bootstrap', bootstrap()], { env });

  it('users: set a password, list (table and --json equal to the API), delete', async () => {
    const user = `cli-user-${randomUUID().slice(0, 8)}`;
    const set = await cli(['users', '--set', user, '--mechanism', 'scram-sha-512', '--iterations', '5000'], {
      TIDEMARK_USER_PASSWORD: 'cli-secret',
    });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe(`set SCRAM-SHA-512 credential of ${user}\n`);
    await eventually(async () => {
      const listed = await cli(['users', user]);
      expect(tableRows(listed.stdout, user)).toEqual([[user, 'SCRAM-SHA-512', '5000']]);
    });
    const json = JSON.parse((await cli(['users', user, '--json'])).stdout);
    expect(json).toEqual(await client.scramCredentials.describe([user]));
    const noPassword = await cli(['users', '--set', user, '--mechanism', 'SCRAM-SHA-256']);
    expect(noPassword.code).toBe(2);
    const deleted = await cli(['users', '--delete', user, '--mechanism', 'SCRAM-SHA-512', '--json']);
    expect(JSON.parse(deleted.stdout)).toEqual([user]);
    const unknown = await cli(['users', `${user}-nobody`]);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/RESOURCE_NOT_FOUND/);
  });

  it('quotas: set, describe (table and --json equal to the API), remove; a bad key is the broker message', async () => {
    const user = `cli-quota-${randomUUID().slice(0, 8)}`;
    const set = await cli(['quotas', '--user', user, '--client-default', '--set', 'request_percentage=12.5']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe(`altered quotas of user=${user},client-id=<default>\n`);
    await eventually(async () => {
      const listed = await cli(['quotas', '--user', user]);
      expect(tableRows(listed.stdout, `user=${user},client-id=<default>`)).toEqual([
        [`user=${user},client-id=<default>`, 'request_percentage', '12.5'],
      ]);
    });
    const json = JSON.parse((await cli(['quotas', '--user', user, '--json'])).stdout);
    expect(json).toEqual(
      await client.quotas.describe({ components: [{ entityType: 'user', match: 'exact', name: user }] }),
    );
    const bad = await cli(['quotas', '--user', user, '--set', 'no_such_quota=1']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/Invalid configuration key no_such_quota/);
    const removed = await cli(['quotas', '--user', user, '--client-default', '--remove', 'request_percentage']);
    expect(removed.code, removed.stderr).toBe(0);
  });
});
