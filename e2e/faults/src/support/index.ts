/**
 * The fault suite's harness. A fault file starts a stack, runs each fault under load, and expects
 * the outcome clean:
 *
 *   beforeAll(...PROMTOOL_BUILT);                         // promtool evaluates the alert rules
 *   const stack = await startFaultStack({ name: 'postgres-failover', databaseUrl });  // beforeAll
 *   const outcome = await runFault(stack, {
 *     name: 'postgres: primary killed, replica promoted',
 *     holdMs: 30_000,
 *     inject: async (stack) => { await primary.kill(); return () => primary.restartAsReplica(); },
 *   });
 *   expectHeldUp(outcome);        // every call 201 or a 503 problem in time; nothing lost, duplicated or stuck; no alert fired
 *   await stack.stop();                                   // afterAll
 *
 * `startFaultStack`: three brokers, `copies` (2) copies of each app on a database of the runner's
 * PostgreSQL or the one `databaseUrl` names, `appEnv` for extra settings; `stack.copies` restart
 * an app, `stack.brokers` kill and restart a broker. `cutOff(pid, label, ports?)`
 * (`@tailsync/tools/testing`) cuts a process off the network until `heal()`. `runFault` prints the
 * availability report and keeps it in `.data/faults/report.json`.
 */
export { type AppCopy, type FaultStack, type FaultStackOptions, FAULT_PORTS, REQUEST_BUDGET_MS, startFaultStack } from './fault-stack';
export { type FaultAlert, firing, inState, PROMTOOL_BUILT, readAsDown } from './fault-alerts';
export { type Fault, type FaultOutcome, runFault } from './run-fault';
export { expectHeldUp } from './held-up';
export type { LoadOptions } from './steady-load';
