import { knownSettings, readmeSettings } from '@tailsync/service-kit';
import { WebhookDispatcherConfig } from './webhook-dispatcher.config';

describe('webhook-dispatcher settings in the README', () => {
  it('documents every setting webhook-dispatcher reads in the configuration table', () => {
    const documented = readmeSettings();
    expect([...knownSettings(WebhookDispatcherConfig)].filter((name) => !documented.has(name))).toEqual([]);
  });
});
