import { describe, expect, it } from 'vitest';
import { loadConfig } from '~/server/config';

const CWD = '/srv/portal';
const load = (env: Record<string, string | undefined>) => loadConfig(env, CWD);

describe('loadConfig defaults', () => {
  it('when the environment is empty, then every setting has its default (README.md "Configuration")', () => {
    const config = load({});
    expect(config).toMatchObject({
      port: 4321,
      host: 'localhost',
      databaseUrl: 'sqlite:db/portal.sqlite',
      sqliteFile: '/srv/portal/db/portal.sqlite',
      dataDir: '/srv/portal/db',
      appSecretFile: '/srv/portal/db/app-secret',
      uploadsDir: '/srv/portal/uploads',
      appSecret: null,
      adminUsername: 'admin',
      adminPassword: null,
      provider: 'sandbox',
      sandboxReceipts: 500,
      sandboxSeed: 1,
      sandboxProtocol: 'contract',
      providerTimeoutMs: 30_000,
      demoUsers: true,
      syncIntervalSeconds: 120,
      showLocations: true,
      loginMaxAttempts: 5,
      loginWindowSeconds: 900,
      trustProxy: false,
      apiTokenRatePerMinute: 120,
    });
    expect(config.publicUrl.href).toBe('http://localhost:4321/');
  });

  it('when PROVIDER_TIMEOUT_SECONDS is set, then one request to the provider may take that long; outside 5 to 600 it is refused', () => {
    expect(load({ PROVIDER_TIMEOUT_SECONDS: '90' }).providerTimeoutMs).toBe(90_000);
    for (const value of ['4', '601', '1.5'])
      expect(() => load({ PROVIDER_TIMEOUT_SECONDS: value })).toThrow(
        `PROVIDER_TIMEOUT_SECONDS must be a whole number`,
      );
  });

  it('when SANDBOX_PROTOCOL is set, then the sandbox speaks that protocol; an unknown one is refused', () => {
    expect(load({ SANDBOX_PROTOCOL: 'magaya' }).sandboxProtocol).toBe('magaya');
    expect(() => load({ SANDBOX_PROTOCOL: 'soap' })).toThrow(
      'SANDBOX_PROTOCOL must be one of contract, magaya',
    );
  });

  it('when PROVIDER=magaya, then PROVIDER_URL is the Invoke URL, the API user comes from MAGAYA_USERNAME and MAGAYA_PASSWORD, and the full re-read is weekly', () => {
    const invoke = 'https://acme.magayacloud.com/api/Invoke?Handler=CSSoapService';
    const config = load({
      PROVIDER: 'magaya',
      PROVIDER_URL: invoke,
      MAGAYA_USERNAME: 'portal',
      MAGAYA_PASSWORD: 'secret',
      MAGAYA_TIME_ZONE: 'America/New_York',
    });
    expect(config).toMatchObject({
      providerProtocol: 'magaya',
      magayaUrl: invoke,
      magayaUsername: 'portal',
      magayaPassword: 'secret',
      magayaTimeZone: 'America/New_York',
      syncFullIntervalSeconds: 7 * 86_400,
    });
    // Without them an admin enters the user on Token Management.
    expect(load({ PROVIDER: 'magaya', PROVIDER_URL: invoke })).toMatchObject({
      magayaUsername: null,
      magayaPassword: null,
      magayaTimeZone: 'UTC',
    });
    expect(() => load({ PROVIDER: 'magaya' })).toThrow(
      'PROVIDER_URL is required with PROVIDER=magaya',
    );
    expect(() =>
      load({ PROVIDER: 'magaya', PROVIDER_URL: invoke, MAGAYA_USERNAME: 'portal' }),
    ).toThrow('MAGAYA_USERNAME and MAGAYA_PASSWORD are set together');
    expect(() =>
      load({ PROVIDER: 'magaya', PROVIDER_URL: invoke, MAGAYA_TIME_ZONE: 'Mars/Olympus' }),
    ).toThrow('MAGAYA_TIME_ZONE must be an IANA time zone');
  });

  it('when the sandbox speaks Magaya, then the portal reads it as Magaya at its own /sandbox/Invoke with the sandbox API user', () => {
    expect(load({ SANDBOX_PROTOCOL: 'magaya' })).toMatchObject({
      providerProtocol: 'magaya',
      magayaUrl: 'http://localhost:4321/sandbox/Invoke?Handler=CSSoapService',
      magayaUsername: 'portal',
      magayaPassword: 'sandbox',
    });
    expect(load({})).toMatchObject({
      providerProtocol: 'contract',
      magayaUrl: null,
      syncFullIntervalSeconds: 3600,
    });
  });

  it('when PORT is set, then the default PUBLIC_URL follows it', () => {
    expect(load({ PORT: '8080' }).publicUrl.origin).toBe('http://localhost:8080');
    expect(load({ PORT: '8080', PUBLIC_URL: 'https://portal.example.com' }).publicUrl.origin).toBe(
      'https://portal.example.com',
    );
  });

  it('when variables are empty or blank, then the defaults apply', () => {
    const config = load({
      PORT: '',
      LOGIN_MAX_ATTEMPTS: '  ',
      SHOW_LOCATIONS: '',
      ADMIN_PASSWORD: '',
      APP_SECRET: '  ',
      ADMIN_USERNAME: ' ',
    });
    expect(config).toMatchObject({
      port: 4321,
      loginMaxAttempts: 5,
      showLocations: true,
      adminPassword: null,
      appSecret: null,
      adminUsername: 'admin',
    });
  });

  it('when ADMIN_USERNAME has capitals, then it is lowercased', () => {
    expect(load({ ADMIN_USERNAME: 'Boss' }).adminUsername).toBe('boss');
  });

  it('when PROVIDER is http, then demo users default to off', () => {
    const http = { PROVIDER: 'http', PROVIDER_URL: 'https://logistics.example.com/api/' };
    expect(load(http).demoUsers).toBe(false);
    expect(load({ ...http, DEMO_USERS: 'true' }).demoUsers).toBe(true);
  });

  it('when PROVIDER is http, then PROVIDER_URL is required and names every provider endpoint', () => {
    expect(() => load({ PROVIDER: 'http' })).toThrow('PROVIDER_URL is required with PROVIDER=http');
    const config = load({
      PROVIDER: 'http',
      PROVIDER_URL: 'https://logistics.example.com/api/',
      PUBLIC_URL: 'https://portal.example.com',
    });
    expect(config.providerUrl).toBe('https://logistics.example.com/api');
    expect(config.providerIssuer).toBeNull();
    expect(config.providerAuthorizeUrl).toBe('https://logistics.example.com/api/oauth/authorize');
    expect(config.providerTokenUrl).toBe('https://logistics.example.com/api/oauth/token');
    expect(config.providerRevocationUrl).toBeNull();
    expect(config.providerScope).toBe('receipts');
    expect(config.providerTokenAuth).toBeNull();
    expect(config.oauthRedirectUri).toBe('https://portal.example.com/admin/tokens/callback');
  });

  it('when PROVIDER_ISSUER is set, then the endpoints come from its metadata unless configured', () => {
    const http = {
      PROVIDER: 'http',
      PROVIDER_URL: 'https://logistics.example.com/api',
      PROVIDER_ISSUER: 'https://login.example.com',
    };
    expect(load(http)).toMatchObject({
      providerIssuer: 'https://login.example.com',
      providerAuthorizeUrl: null,
      providerTokenUrl: null,
    });
    expect(
      load({ ...http, PROVIDER_TOKEN_URL: 'https://login.example.com/oauth2/token' })
        .providerTokenUrl,
    ).toBe('https://login.example.com/oauth2/token');
    expect(() => load({ ...http, PROVIDER_ISSUER: 'login.example.com' })).toThrow(
      'PROVIDER_ISSUER must be a URL, got "login.example.com"',
    );
  });

  it('when PROVIDER_SCOPE and PROVIDER_TOKEN_AUTH are set, then they are taken; a secret method needs a secret', () => {
    const http = { PROVIDER: 'http', PROVIDER_URL: 'https://logistics.example.com/api' };
    expect(load({ ...http, PROVIDER_SCOPE: '  receipts   offline_access ' }).providerScope).toBe(
      'receipts offline_access',
    );
    expect(
      load({ ...http, PROVIDER_TOKEN_AUTH: 'client_secret_post', PROVIDER_CLIENT_SECRET: 's' })
        .providerTokenAuth,
    ).toBe('client_secret_post');
    expect(load({ ...http, PROVIDER_TOKEN_AUTH: 'none' }).providerTokenAuth).toBe('none');
    expect(() => load({ ...http, PROVIDER_TOKEN_AUTH: 'client_secret_basic' })).toThrow(
      'PROVIDER_TOKEN_AUTH=client_secret_basic needs PROVIDER_CLIENT_SECRET',
    );
    expect(() => load({ ...http, PROVIDER_TOKEN_AUTH: 'private_key_jwt' })).toThrow(
      'PROVIDER_TOKEN_AUTH must be one of client_secret_basic, client_secret_post, none, got "private_key_jwt"',
    );
  });

  it('when PROVIDER is sandbox, then the server reaches it on its own port and finds its endpoints by its metadata', () => {
    const config = load({
      PORT: '5000',
      HOST: '0.0.0.0',
      PUBLIC_URL: 'https://portal.example.com',
    });
    expect(config.providerUrl).toBe('http://127.0.0.1:5000/sandbox');
    expect(config.providerIssuer).toBe('http://127.0.0.1:5000/sandbox');
    expect(config.providerTokenUrl).toBeNull();
    expect(config.providerAuthorizeUrl).toBeNull();
  });
});

describe('loadConfig DATABASE_URL', () => {
  it.each([
    ['sqlite:data/portal.sqlite', '/srv/portal/data/portal.sqlite', '/srv/portal/data'],
    ['sqlite:/var/lib/portal/portal.sqlite', '/var/lib/portal/portal.sqlite', '/var/lib/portal'],
    ['sqlite:///var/lib/portal/portal.sqlite', '/var/lib/portal/portal.sqlite', '/var/lib/portal'],
  ])(
    'when DATABASE_URL is %s, then the SQLite file is %s and secrets live in %s',
    (url, file, dir) => {
      const config = load({ DATABASE_URL: url });
      expect(config.sqliteFile).toBe(file);
      expect(config.dataDir).toBe(dir);
    },
  );

  it.each(['postgres://portal:secret@db:5432/portal', 'postgresql://portal@db/portal'])(
    'when DATABASE_URL is %s, then there is no SQLite file',
    (url) => {
      const config = load({ DATABASE_URL: url });
      expect(config.databaseUrl).toBe(url);
      expect(config.sqliteFile).toBeNull();
      expect(config.dataDir).toBe('/srv/portal/db');
    },
  );

  it.each(['mysql://db/portal', 'portal.sqlite'])(
    'when DATABASE_URL is %s, then loading throws',
    (url) => {
      expect(() => load({ DATABASE_URL: url })).toThrow(/DATABASE_URL/);
    },
  );
});

describe('loadConfig flags', () => {
  it.each(['false', 'FALSE', ' 0 ', 'no', 'off'])(
    'when SHOW_LOCATIONS is %j, then showLocations is false',
    (value) => {
      expect(load({ SHOW_LOCATIONS: value }).showLocations).toBe(false);
    },
  );

  it.each(['true', '1', 'yes', 'on'])(
    'when TRUST_PROXY is %j, then trustProxy is true',
    (value) => {
      expect(load({ TRUST_PROXY: value }).trustProxy).toBe(true);
    },
  );

  it.each([
    ['SHOW_LOCATIONS', 'maybe'],
    ['TRUST_PROXY', 'sure'],
  ])('when %s is %j, then loading throws naming it', (name, value) => {
    expect(() => load({ [name]: value })).toThrow(name);
  });
});

describe('loadConfig numbers', () => {
  it('when the limits are set, then they are used', () => {
    expect(
      load({
        LOGIN_MAX_ATTEMPTS: '3',
        LOGIN_WINDOW_SECONDS: '60',
        SESSION_IDLE_MINUTES: '5',
        SESSION_MAX_HOURS: '2',
        API_TOKEN_RATE_PER_MINUTE: '10',
      }),
    ).toMatchObject({
      loginMaxAttempts: 3,
      loginWindowSeconds: 60,
      sessionIdleMinutes: 5,
      sessionMaxHours: 2,
      apiTokenRatePerMinute: 10,
    });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '-1'],
    ['LOGIN_MAX_ATTEMPTS', '0'],
    ['LOGIN_MAX_ATTEMPTS', '1.5'],
    ['LOGIN_WINDOW_SECONDS', 'ten'],
    ['SESSION_IDLE_MINUTES', '0'],
    ['LOGIN_MAX_ATTEMPTS_PER_ADDRESS', '50'],
    ['API_TOKEN_RATE_PER_MINUTE', '0'],
  ])('when %s is %j, then loading throws naming it', (name, value) => {
    expect(() => load({ [name]: value })).toThrow(name);
  });

  it.each(['1', '4'])(
    'when SESSION_IDLE_MINUTES is %j, shorter than the minute between two records of activity allows for, then loading throws a line saying the least it may be',
    (value) => {
      expect(() => load({ SESSION_IDLE_MINUTES: value })).toThrow(
        `SESSION_IDLE_MINUTES must be a whole number of at least 5, got "${value}"`,
      );
    },
  );

  it('when PASSWORD_HASH_COST is not set, then bcrypt works at cost 12; the tests may lower it to 4, and 15 is the most', () => {
    expect(load({}).passwordHashCost).toBe(12);
    expect(load({ PASSWORD_HASH_COST: '4' }).passwordHashCost).toBe(4);
    expect(load({ PASSWORD_HASH_COST: '15' }).passwordHashCost).toBe(15);
  });

  it.each(['3', '16', '0', 'twelve', '12.5'])(
    'when PASSWORD_HASH_COST is %j, then loading throws naming it',
    (value) => {
      expect(() => load({ PASSWORD_HASH_COST: value })).toThrow('PASSWORD_HASH_COST');
    },
  );

  it.each([
    ['PROVIDER', 'magic'],
    ['PUBLIC_URL', 'not a url'],
  ])('when %s is %j, then loading throws', (name, value) => {
    expect(() => load({ [name]: value })).toThrow();
  });
});
