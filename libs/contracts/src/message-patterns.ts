/**
 * Request-response patterns the gateway sends over Kafka (`@nestjs/microservices`).
 * Each pattern is a topic; its replies travel on `<pattern>.reply`.
 */
export const TAIL_PATTERNS = {
  ping: 'tail-sync.ping',
  createOrMap: 'tail-sync.tails.create-or-map',
  deactivate: 'tail-sync.tails.deactivate',
  reactivate: 'tail-sync.tails.reactivate',
  changeTailNumber: 'tail-sync.tails.change-tail-number',
  get: 'tail-sync.tails.get',
  list: 'tail-sync.tails.list',
  history: 'tail-sync.tails.history',
  countByDomain: 'tail-sync.admin.count-by-domain',
  activity: 'tail-sync.admin.activity',
} as const;

export const WEBHOOK_PATTERNS = {
  ping: 'webhook-dispatcher.ping',
  putSubscription: 'webhook-dispatcher.subscriptions.put',
  getSubscription: 'webhook-dispatcher.subscriptions.get',
  deleteSubscription: 'webhook-dispatcher.subscriptions.delete',
  test: 'webhook-dispatcher.subscriptions.test',
  enableSubscription: 'webhook-dispatcher.subscriptions.enable',
  disableSubscription: 'webhook-dispatcher.subscriptions.disable',
  listDeliveries: 'webhook-dispatcher.deliveries.list',
  redeliver: 'webhook-dispatcher.deliveries.redeliver',
  recover: 'webhook-dispatcher.deliveries.recover',
  activity: 'webhook-dispatcher.admin.activity',
} as const;

export const ALL_PATTERNS: readonly string[] = [...Object.values(TAIL_PATTERNS), ...Object.values(WEBHOOK_PATTERNS)];

export const replyTopic = (pattern: string): string => `${pattern}.reply`;
