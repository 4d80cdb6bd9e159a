import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default [
  // Generated from libs/contracts/proto (npm run generate:grpc); a spec keeps it in step.
  { ignores: ['node_modules', 'dist', '.data', '.nx', 'coverage', '**/*.js', '**/*.cjs', '**/*.mjs', 'libs/contracts/src/grpc/generated/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      // Apps never import each other; libraries never import apps; shared libs stay shared.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            // The e2e harness drives the same process launcher as `npm start`.
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib', 'type:tooling'] },
            { sourceTag: 'type:tooling', onlyDependOnLibsWithTags: ['type:lib', 'type:tooling'] },
          ],
        },
      ],
    },
  },
  // Every producer is made by idempotentProducer() (acks=all, idempotent): none can forget it.
  // Specs may make others, to produce what the apps must refuse.
  {
    files: ['{apps,libs,tools,bench}/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.e2e.ts', '**/*.test-support.ts', 'libs/service-kit/src/kafka/idempotent-producer.ts'],
    rules: {
      'no-restricted-syntax': ['error', { selector: "CallExpression[callee.property.name='producer']", message: 'Make Kafka producers with idempotentProducer() (@tailsync/service-kit): acks=all and idempotent.' }],
    },
  },
  // Every consumer of the apps is made by failoverConsumer(): kafkajs's own consumer retries (5,
  // whatever the client says) give up during a leader change.
  {
    files: ['{apps,libs}/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.test-support.ts', '**/fixtures/**', 'libs/service-kit/src/kafka/failover-consumer.ts', 'libs/service-kit/src/kafka/idempotent-producer.ts'],
    rules: {
      'no-restricted-syntax': ['error', { selector: "CallExpression[callee.property.name='producer']", message: 'Make Kafka producers with idempotentProducer() (@tailsync/service-kit): acks=all and idempotent.' }, { selector: "CallExpression[callee.property.name='consumer'][arguments.length=1]", message: 'Make Kafka consumers with failoverConsumer() (@tailsync/service-kit): they ride out a leader change.' }],
    },
  },
  // The hexagon, in every app: the domain depends on nothing outside it, the application on the
  // domain and its own ports; adapters (infrastructure) and entry points (interface) plug in from
  // outside. Specs and test support may wire real adapters.
  // The dispatcher's concerns (intake, scheduling, attempts, the delivery log, subscriptions,
  // signing, admin) never reach back into its entry points (interface/) or the copy's wiring in
  // src/ (dispatcher.module.ts, dispatcher-lifecycle.ts, app.module.ts); a concern's module may
  // import the modules of the concerns below it. Before the domain rule, which its domain folders keep.
  {
    files: ['apps/webhook-dispatcher/src/{intake,scheduling,attempts,delivery-log,subscriptions,signing,admin}/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.test-support.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '(^|/)interface(/|$)|^(\\.\\./)+(app|dispatcher)\\.module$|(^|/)dispatcher-lifecycle$', message: "A dispatcher concern does not depend on the entry points (interface/) or the copy's wiring (src/dispatcher.module.ts, dispatcher-lifecycle.ts) that use it." }] }],
    },
  },
  {
    files: ['apps/*/src/**/domain/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.test-support.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '(^|/)(application|commands|infrastructure|interface)(/|$)|\\.module$|(^|/)dispatcher-lifecycle$', message: 'The domain depends on nothing outside it.' }] }],
    },
  },
  // A use-case folder (`commands/<command>/`) holds one command's layers side by side: its gRPC
  // method (`*.grpc.ts`, an entry point) and its command, handler and use case (the application).
  {
    files: ['apps/*/src/**/application/**/*.ts', 'apps/*/src/**/commands/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.test-support.ts', '**/*.grpc.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '(^|/)(infrastructure|interface)(/|$)|\\.grpc$', message: 'The application reaches adapters through its ports (application/*-ports.ts).' }] }],
    },
  },
  // Adapters serve the application and never reach into the entry points that use them (the
  // dispatcher has no infrastructure/ folder: its concerns' rule is above).
  {
    files: ['apps/{gateway,tail-sync}/src/**/infrastructure/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.test-support.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '(^|/)interface(/|$)|\\.grpc$', message: 'An adapter does not depend on the entry points (interface/, *.grpc.ts) that use it.' }] }],
    },
  },
];
