import { describe, expect, it } from 'vitest';
import { allProjectors, readModelNames } from './registry.ts';

describe('projection registry', () => {
  it('names every registered read model in readModelNames, and nothing else', () => {
    expect([...readModelNames]).toEqual(allProjectors.map((p) => p.name));
  });
});
