import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULTS, dataDirOf, listenUrl, loadConfig } from './config.js';

const SECRET = 'q3Jx9vR2mT7wYbK1pL5sZ8nD0cF4gH6j';

/** The ConfigError a call throws, or fails the test when it throws nothing. */
function refusal(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError, nothing was thrown');
}

describe('loadConfig: defaults', () => {
  it('serves 127.0.0.1:3000 on ./data/remit.sqlite with no settings', () => {
    const cfg = loadConfig({});
    expect(cfg.db).toEqual({ client: 'sqlite', filename: './data/remit.sqlite' });
    expect(cfg.port).toBe(3000);
    expect(cfg.host).toBe('127.0.0.1');
    expect(cfg.jwtSecret).toBeUndefined();
    expect(cfg.adminPassword).toBeUndefined();
    expect(cfg.trustProxy).toBe(false);
  });

  it('tokens expire after 12 hours', () => {
    expect(loadConfig({}).tokenTtlSeconds).toBe(12 * 60 * 60);
  });

  it('uses a bcrypt cost of at least 10', () => {
    expect(loadConfig({}).bcryptCost).toBeGreaterThanOrEqual(10);
  });

  it('names the smoke-accessories business in the default title', () => {
    expect(DEFAULTS.title).toContain('煙具');
    expect(loadConfig({}).title).toBe(DEFAULTS.title);
    expect(loadConfig({ REMIT_TITLE: '  測試店 匯款系統 ' }).title).toBe('測試店 匯款系統');
  });

  it('treats empty variables as unset', () => {
    const cfg = loadConfig({
      PORT: '',
      REMIT_DB: '',
      DATABASE_URL: '',
      REMIT_JWT_SECRET: '',
      REMIT_BCRYPT_COST: '',
      HOST: '',
    });
    expect(cfg.port).toBe(3000);
    expect(cfg.db).toEqual({ client: 'sqlite', filename: './data/remit.sqlite' });
    expect(cfg.jwtSecret).toBeUndefined();
    expect(cfg.host).toBe('127.0.0.1');
  });
});

describe('loadConfig: database choice', () => {
  it('REMIT_DB names the SQLite file', () => {
    expect(loadConfig({ REMIT_DB: '/srv/remit/shop.sqlite' }).db).toEqual({
      client: 'sqlite',
      filename: '/srv/remit/shop.sqlite',
    });
  });

  it('DATABASE_URL=postgres://... selects PostgreSQL', () => {
    const url = 'postgres://remit:pw@db.internal:5432/remit';
    expect(loadConfig({ DATABASE_URL: url }).db).toEqual({ client: 'pg', connectionString: url });
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/remit' }).db.client).toBe('pg');
  });

  it('the --db flag wins over REMIT_DB and DATABASE_URL', () => {
    const cfg = loadConfig({ REMIT_DB: '/a.sqlite', DATABASE_URL: 'postgres://db/remit' }, { db: '/flag.sqlite' });
    expect(cfg.db).toEqual({ client: 'sqlite', filename: '/flag.sqlite' });
  });

  it('refuses a DATABASE_URL that is not PostgreSQL, naming the variable', () => {
    expect(refusal(() => loadConfig({ DATABASE_URL: 'mysql://db/remit' })).message).toContain('DATABASE_URL');
  });
});

describe('loadConfig: port, host and flags', () => {
  it('reads PORT and HOST', () => {
    const cfg = loadConfig({ PORT: '8080', HOST: '0.0.0.0' });
    expect(cfg.port).toBe(8080);
    expect(cfg.host).toBe('0.0.0.0');
  });

  it('flags win over the environment', () => {
    const cfg = loadConfig({ PORT: '8080', HOST: '0.0.0.0' }, { port: '9090', host: '::1' });
    expect(cfg.port).toBe(9090);
    expect(cfg.host).toBe('::1');
    expect(loadConfig({}, { port: 4000 }).port).toBe(4000);
  });

  it.each(['abc', '70000', '-1', '80.5', '65536'])(
    'refuses PORT=%s with a message naming the variable and the value',
    (port) => {
      const err = refusal(() => loadConfig({ PORT: port }));
      expect(err.message).toContain('PORT');
      expect(err.message).toContain(port);
      expect(err.name).toBe('ConfigError');
    },
  );

  it('refuses a bad --port flag', () => {
    expect(refusal(() => loadConfig({}, { port: 'abc' })).message).toContain('abc');
  });
});

describe('loadConfig: secrets and costs', () => {
  it('takes REMIT_JWT_SECRET when it is long enough', () => {
    expect(loadConfig({ REMIT_JWT_SECRET: SECRET }).jwtSecret).toBe(SECRET);
  });

  it('refuses a short REMIT_JWT_SECRET, naming the variable', () => {
    const err = refusal(() => loadConfig({ REMIT_JWT_SECRET: 'short-secret' }));
    expect(err.message).toContain('REMIT_JWT_SECRET');
    expect(err.message).toContain('32');
    expect(() => loadConfig({ REMIT_JWT_SECRET: 'x'.repeat(31) })).toThrow(ConfigError);
  });

  it('reads REMIT_BCRYPT_COST within 10 to 15', () => {
    expect(loadConfig({ REMIT_BCRYPT_COST: '10' }).bcryptCost).toBe(10);
    expect(loadConfig({ REMIT_BCRYPT_COST: '15' }).bcryptCost).toBe(15);
  });

  it.each(['abc', '4', '9', '16', '12.5'])(
    'refuses REMIT_BCRYPT_COST=%s, naming the variable and the value',
    (cost) => {
      const err = refusal(() => loadConfig({ REMIT_BCRYPT_COST: cost }));
      expect(err.message).toContain('REMIT_BCRYPT_COST');
      expect(err.message).toContain(cost);
    },
  );

  it('refuses a bad REMIT_TOKEN_TTL', () => {
    expect(refusal(() => loadConfig({ REMIT_TOKEN_TTL: 'forever' })).message).toContain('REMIT_TOKEN_TTL');
    expect(loadConfig({ REMIT_TOKEN_TTL: '3600' }).tokenTtlSeconds).toBe(3600);
  });

  it('reads the first admin password and the proxy flag', () => {
    const cfg = loadConfig({ REMIT_ADMIN_PASSWORD: 'first-admin-pw', REMIT_TRUST_PROXY: 'true' });
    expect(cfg.adminPassword).toBe('first-admin-pw');
    expect(cfg.trustProxy).toBe(true);
    expect(loadConfig({ REMIT_TRUST_PROXY: '0' }).trustProxy).toBe(false);
  });
});

describe("loadConfig: a store's public link", () => {
  it('writes links with REMIT_PUBLIC_URL, without a trailing slash; absent, the address remit serve listens on', () => {
    expect(loadConfig({}).publicUrl).toBeUndefined();
    expect(loadConfig({ REMIT_PUBLIC_URL: 'https://pay.example.tw/' }).publicUrl).toBe('https://pay.example.tw');
    expect(loadConfig({ REMIT_PUBLIC_URL: 'https://example.tw/remit/' }).publicUrl).toBe('https://example.tw/remit');
    expect(listenUrl('0.0.0.0', 3000)).toBe('http://localhost:3000');
    expect(listenUrl('::1', 8080)).toBe('http://[::1]:8080');
  });
  it('refuses an address customers could not use, saying what it is', () => {
    for (const bad of ['pay.example.tw', 'ftp://x.tw', 'https://x.tw/?a=1', 'https://u:p@x.tw']) {
      expect(() => loadConfig({ REMIT_PUBLIC_URL: bad })).toThrow(/REMIT_PUBLIC_URL 必須是顧客連得到的網址/);
    }
  });
  it('limits 5 a minute and 30 a day per address and 300 a day per link unless set', () => {
    expect(loadConfig({}).publicLimits).toEqual({ perAddressMinute: 5, perAddressDay: 30, perLinkDay: 300 });
    expect(
      loadConfig({ REMIT_PUBLIC_PER_MINUTE: '2', REMIT_PUBLIC_PER_DAY: '10', REMIT_PUBLIC_LINK_PER_DAY: '50' })
        .publicLimits,
    ).toEqual({ perAddressMinute: 2, perAddressDay: 10, perLinkDay: 50 });
    expect(() => loadConfig({ REMIT_PUBLIC_PER_MINUTE: '0' })).toThrow(/REMIT_PUBLIC_PER_MINUTE/);
  });
});

describe('loadConfig: the request log and the data folder', () => {
  it('REMIT_LOG=json asks for one JSON line per request; unset keeps the plain text; anything else is refused', () => {
    expect(loadConfig({}).log).toBe('text');
    expect(loadConfig({ REMIT_LOG: '' }).log).toBe('text');
    expect(loadConfig({ REMIT_LOG: 'JSON' }).log).toBe('json');
    expect(refusal(() => loadConfig({ REMIT_LOG: 'yes' })).message).toBe(
      'REMIT_LOG 只能是 json 或不設定（目前是「yes」）',
    );
  });

  it("watches the SQLite file's folder, or ./data beside PostgreSQL", () => {
    expect(dataDirOf(loadConfig({ REMIT_DB: '/data/remit.sqlite' }).db)).toBe('/data');
    expect(dataDirOf(loadConfig({}).db)).toBe('./data');
    expect(dataDirOf(loadConfig({ DATABASE_URL: 'postgres://remit@db/remit' }).db)).toBe('./data');
  });
});
