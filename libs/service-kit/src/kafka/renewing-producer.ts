import type { Producer, ProducerRecord, RecordMetadata } from 'kafkajs';

/** What tailsync's senders use of a producer. */
export type Sender = Pick<Producer, 'connect' | 'send' | 'disconnect'>;

/**
 * An idempotent producer that is replaced by a new one after a send that failed for good.
 *
 * kafkajs rolls a failed send's sequence numbers back, but the leader may have appended the batch
 * (its answer timed out or was lost): the next send then reuses those numbers for other messages
 * and the broker refuses it, and every later one, as OUT_OF_ORDER_SEQUENCE_NUMBER. A new producer
 * gets a new producer id from the broker, so its sequences start afresh (as the Java client bumps
 * its epoch, KIP-360). Sending the failed messages again is the caller's, from its outbox or its
 * uncommitted offsets: at least once.
 */
export class RenewingProducer implements Sender {
  private current: Producer;
  private connected: Promise<void> | undefined;

  constructor(private readonly make: () => Producer) {
    this.current = make();
  }

  async connect(): Promise<void> {
    await this.connectedProducer();
  }

  async send(record: ProducerRecord): Promise<RecordMetadata[]> {
    const producer = this.current;
    try {
      await this.connectedProducer();
      return await producer.send(record);
    } catch (error) {
      // Sends in flight on the same producer fail with it: only the first renews it.
      if (this.current === producer) this.renew();
      throw error;
    }
  }

  async disconnect(): Promise<void> {
    this.connected = undefined;
    await this.current.disconnect();
  }

  private connectedProducer(): Promise<void> {
    this.connected ??= this.current.connect().catch((error: unknown) => {
      this.connected = undefined;
      throw error;
    });
    return this.connected;
  }

  private renew(): void {
    const old = this.current;
    this.current = this.make();
    this.connected = undefined;
    void old.disconnect().catch(() => undefined);
  }
}
