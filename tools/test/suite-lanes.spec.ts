import { lanesAtOnce, suiteLanes } from './suite-lanes';

const places = { dataDir: '/repo/.data/test', kafkaPort: 19092, postgresPort: 15432 };
const plan = (args: string[]) => {
  const { lanes, passOn } = suiteLanes(args, places);
  return { lanes: lanes.map(({ name, nxRuns, dataDir, kafkaPort, postgresPort }) => ({ name, nxRuns, dataDir, kafkaPort, postgresPort })), passOn };
};

describe('the lanes of a test run', () => {
  it('runs the libraries and then the e2e files in one lane and every other project in the other (tools, whose tests wait for built tools, last), each lane on servers of its own', () => {
    expect(plan([])).toEqual({
      lanes: [
        {
          name: 'e2e',
          nxRuns: [
            { selection: ['--projects=contracts,event-store,webhook-signing,service-kit'], projects: 'contracts, event-store, webhook-signing, service-kit', waitsFor: [] },
            { selection: ['--projects=e2e'], projects: 'e2e', waitsFor: [] },
          ],
          dataDir: '/repo/.data/test/e2e',
          kafkaPort: 19092,
          postgresPort: 15432,
        },
        {
          name: 'projects',
          nxRuns: [
            { selection: ['--exclude=e2e,contracts,event-store,webhook-signing,service-kit,webhook-dispatcher,tools'], projects: 'every other project', waitsFor: [] },
            { selection: ['--projects=webhook-dispatcher'], projects: 'webhook-dispatcher', waitsFor: ['python-receivers'] },
            { selection: ['--projects=tools'], projects: 'tools', waitsFor: ['python-receivers'] },
          ],
          dataDir: '/repo/.data/test/projects',
          kafkaPort: 19292,
          postgresPort: 15433,
        },
      ],
      passOn: [],
    });
  });

  it('starts the other lane with the projects that run no Python, and has a project that does wait for its own venvs only', () => {
    const [projects] = suiteLanes(['--projects=tools,gateway,webhook-dispatcher,contracts'], places).lanes;
    expect(projects.nxRuns).toEqual([
      { selection: ['--projects=gateway,contracts'], projects: 'gateway, contracts', waitsFor: [] },
      { selection: ['--projects=webhook-dispatcher'], projects: 'webhook-dispatcher', waitsFor: ['python-receivers'] },
      { selection: ['--projects=tools'], projects: 'tools', waitsFor: ['python-receivers'] },
    ]);
    expect(projects.runs).toBe('gateway, contracts, then webhook-dispatcher (once python-receivers is installed), then tools (once python-receivers is installed), one after another');
  });

  it('starts only the lanes of the projects named, and passes the other arguments on to each', () => {
    expect(plan(['--projects=e2e', '--testPathPatterns=tails', '--testPathPatterns=auth'])).toEqual({
      lanes: [{ name: 'e2e', nxRuns: [{ selection: ['--projects=e2e'], projects: 'e2e', waitsFor: [] }], dataDir: '/repo/.data/test/e2e', kafkaPort: 19092, postgresPort: 15432 }],
      passOn: ['--testPathPatterns=tails', '--testPathPatterns=auth'],
    });
    expect(plan(['--projects', 'gateway,tools', '--testPathPatterns=x'])).toEqual({
      lanes: [
        {
          name: 'projects',
          nxRuns: [
            { selection: ['--projects=gateway'], projects: 'gateway', waitsFor: [] },
            { selection: ['--projects=tools'], projects: 'tools', waitsFor: ['python-receivers'] },
          ],
          dataDir: '/repo/.data/test/projects',
          kafkaPort: 19292,
          postgresPort: 15433,
        },
      ],
      passOn: ['--testPathPatterns=x'],
    });
    expect(plan(['-p', 'tools,e2e']).lanes.map((lane) => [lane.name, lane.nxRuns.map((run) => run.selection)])).toEqual([
      ['e2e', [['--projects=e2e']]],
      ['projects', [['--projects=tools']]],
    ]);
    expect(plan(['--projects=gateway,contracts']).lanes.map((lane) => lane.nxRuns)).toEqual([[{ selection: ['--projects=gateway,contracts'], projects: 'gateway, contracts', waitsFor: [] }]]);
  });

  it('runs a library named with e2e in the e2e lane, before its files, and in the other lane without it', () => {
    expect(plan(['--projects=e2e,service-kit,gateway']).lanes.map((lane) => [lane.name, lane.nxRuns.map((run) => run.selection)])).toEqual([
      ['e2e', [['--projects=service-kit'], ['--projects=e2e']]],
      ['projects', [['--projects=gateway']]],
    ]);
    expect(suiteLanes(['--projects=e2e,service-kit'], places).lanes.map((lane) => lane.runs)).toEqual(['service-kit, then the e2e files one at a time']);
    expect(plan(['--projects=service-kit']).lanes.map((lane) => [lane.name, lane.nxRuns.map((run) => run.selection)])).toEqual([['projects', [['--projects=service-kit']]]]);
  });

  it('runs the lanes side by side unless TEST_LANES_AT_ONCE=1 asks for one after another, and refuses any other value', () => {
    expect(lanesAtOnce({})).toBe(2);
    expect(lanesAtOnce({ TEST_LANES_AT_ONCE: '1' })).toBe(1);
    expect(lanesAtOnce({ TEST_LANES_AT_ONCE: '2' })).toBe(2);
    expect(() => lanesAtOnce({ TEST_LANES_AT_ONCE: '3' })).toThrow('TEST_LANES_AT_ONCE is "3": 2 runs the lanes side by side, 1 one after another');
  });
});
