import { knownSettings, readmeSettings } from '@tailsync/service-kit';
import { TailSyncConfig } from './tail-sync.config';

describe('tail-sync settings in the README', () => {
  it('documents every setting tail-sync reads in the configuration table', () => {
    const documented = readmeSettings();
    expect([...knownSettings(TailSyncConfig)].filter((name) => !documented.has(name))).toEqual([]);
  });
});
