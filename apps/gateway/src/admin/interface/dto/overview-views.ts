import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { DISABLED_REASONS, registryTexts, WEBHOOK_EVENT_TYPES } from '@tailsync/contracts';

const events = registryTexts(WEBHOOK_EVENT_TYPES);

/** One count per minute of `minutes`. */
const perMinute = (description: string): ApiPropertyOptions => ({ type: [Number], description });

export class ActivitySeriesView {
  @ApiProperty(perMinute('Tails created or changed, each counted once in the minute of its latest change.')) tailsWritten: number[];
  @ApiProperty(perMinute(`${events.EventsAdjective} events consumed for a subscribed domain (each makes a delivery).`)) eventsConsumed: number[];
  @ApiProperty(perMinute('Deliveries that ended delivered.')) delivered: number[];
  @ApiProperty(perMinute('Deliveries that ended failed.')) failed: number[];
  @ApiProperty(perMinute('Events recorded as skipped (the subscription was disabled).')) skipped: number[];
}

export class DomainActivityView extends ActivitySeriesView {
  @ApiProperty() domain: string;
}

export class ReaderLagView {
  @ApiProperty({ description: 'tails: the read model; relay:tailsync.tail-events: the relay to Kafka.' }) name: string;
  @ApiProperty({ description: 'Events of the log not yet read.' }) events: number;
  @ApiProperty({ description: 'true when events stopped counting at its cap (1,000).' }) capped: boolean;
  @ApiProperty({ description: 'Age of the oldest event not yet read; 0 when caught up.' }) seconds: number;
}

export class AttentionSubscriptionView {
  @ApiProperty() domain: string;
  @ApiProperty() url: string;
  @ApiProperty({ enum: ['active', 'disabled'] }) status: string;
  @ApiProperty({ type: String, enum: DISABLED_REASONS, nullable: true }) disabledReason: string | null;
  @ApiProperty() failedDeliveriesInARow: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastFailureAt: string | null;
}

export class OverviewView {
  @ApiProperty({ format: 'date-time' }) generatedAt: string;
  @ApiProperty({ type: [String], description: 'Starts of the last 60 minutes, the current one last.' }) minutes: string[];
  @ApiProperty({ type: ActivitySeriesView }) total: ActivitySeriesView;
  @ApiProperty({ type: [DomainActivityView], description: 'Domains with any activity in the hour, by name.' }) domains: DomainActivityView[];
  @ApiProperty({ type: [ReaderLagView], description: "tail-sync's readers of the event log." }) lags: ReaderLagView[];
  @ApiProperty({ type: Number, nullable: true, description: `${events.EventsAdjective} messages the dispatcher's consumer group has not committed; null if unknown.` }) consumerLag: number | null;
  @ApiProperty({ type: [AttentionSubscriptionView], description: 'Subscriptions disabled or with failed deliveries in a row (at most 100).' }) subscriptions: AttentionSubscriptionView[];
}
