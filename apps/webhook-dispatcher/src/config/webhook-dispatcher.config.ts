import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { CommonConfig } from '@tailsync/service-kit';

export class WebhookDispatcherConfig extends CommonConfig {
  /** Port of this process's health and metrics endpoints. */
  @IsInt()
  @Min(1)
  @Max(65535)
  WEBHOOK_DISPATCHER_HTTP_PORT: number = 3002;

  /** Comma list of retry delays in ms (N delays give N + 1 attempts); default 2 s … 256 s. */
  @IsOptional()
  @IsString()
  WEBHOOK_RETRY_DELAYS_MS?: string;
}
