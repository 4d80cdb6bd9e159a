import { knownSettings, readmeSettings } from '@tailsync/service-kit';
import { GatewayConfig } from './gateway.config';

describe('gateway settings in the README', () => {
  it('documents every setting gateway reads in the configuration table', () => {
    const documented = readmeSettings();
    expect([...knownSettings(GatewayConfig)].filter((name) => !documented.has(name))).toEqual([]);
  });
});
