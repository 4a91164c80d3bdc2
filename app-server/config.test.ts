import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('configuration', () => {
  it('APP_URL follows WEB_PORT unless it is set (auth redirects land where npm start serves the web app)', () => {
    expect(loadConfig({}).APP_URL).toBe('http://localhost:5173');
    expect(loadConfig({ WEB_PORT: '4200' }).APP_URL).toBe('http://localhost:4200');
    expect(loadConfig({ WEB_PORT: '4200', APP_URL: '' }).APP_URL).toBe('http://localhost:4200');
    expect(loadConfig({ WEB_PORT: '4200', APP_URL: 'https://app.example.com' }).APP_URL).toBe(
      'https://app.example.com',
    );
    // PORT moves the API alone: the web app stays where it was, and calls the API on its own origin.
    expect(loadConfig({ PORT: '4123' }).APP_URL).toBe('http://localhost:5173');
  });

  it('PUBLIC_URL follows PORT unless it is set (links in e-mails name the port the API listens on)', () => {
    expect(loadConfig({}).PUBLIC_URL).toBe('http://localhost:3001');
    expect(loadConfig({ PORT: '4100' }).PUBLIC_URL).toBe('http://localhost:4100');
    expect(loadConfig({ PORT: '4100', PUBLIC_URL: '' }).PUBLIC_URL).toBe('http://localhost:4100');
    expect(loadConfig({ PORT: '4100', PUBLIC_URL: 'https://api.example.com' }).PUBLIC_URL).toBe(
      'https://api.example.com',
    );
  });

  it('WORKER_LINGER_MS: unset leaves the choice to the process (250 in a worker, 0 in the API), and bad values are refused', () => {
    expect(loadConfig({}).WORKER_LINGER_MS).toBeUndefined();
    expect(loadConfig({ WORKER_LINGER_MS: '25' }).WORKER_LINGER_MS).toBe(25);
    expect(() => loadConfig({ WORKER_LINGER_MS: 'soon' })).toThrow('WORKER_LINGER_MS: must be a number');
    expect(() => loadConfig({ WORKER_LINGER_MS: '-1' })).toThrow('WORKER_LINGER_MS');
    expect(loadConfig({ WORKER_LINGER_MS: '10000' }).WORKER_LINGER_MS).toBe(10_000);
    expect(() => loadConfig({ WORKER_LINGER_MS: '10001' })).toThrow('WORKER_LINGER_MS');
    expect(() => loadConfig({ WORKER_LINGER_MS: '2.5' })).toThrow('WORKER_LINGER_MS');
  });
});
