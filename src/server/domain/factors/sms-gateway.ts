// Whether SMS codes can be sent: the server property sms-gateway-status (admins switch it when
// the gateway provider has an outage) and a configured gateway (or the dev outbox).
import type { Kysely } from 'kysely';
import type { SmsSender } from '../../adapters/sms';
import { findProperty } from '../../db/repositories/reference';
import type { Database } from '../../db/schema';
import { noteChange } from '../../observability/context';
import { SMS_GATEWAY_STATUS } from '../reference';

export const SMS_GATEWAY_AVAILABLE = 'AVAILABLE';
export const SMS_GATEWAY_UNAVAILABLE = 'UNAVAILABLE';

export class SmsGatewayStatus {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sender: SmsSender,
  ) {}

  /** Whether there is a gateway (or the dev outbox) to send codes through at all. */
  get canSend(): boolean {
    return this.sender.kind !== 'unconfigured';
  }

  /** False when switched off, and always false without a gateway to send through. */
  async isAvailable(): Promise<boolean> {
    if (this.sender.kind === 'unconfigured') return false;
    return (await findProperty(this.db, SMS_GATEWAY_STATUS)) === SMS_GATEWAY_AVAILABLE;
  }

  /**
   * Switches SMS codes on or off for every instance (the admin screens call this), and answers
   * what the servers will now use (isAvailable: still off without a gateway to send through). The
   * audit line (SMS_GATEWAY_STATUS_CHANGED) names the admin and the value set, and is written once
   * the property proves to hold it.
   */
  async setAvailable(available: boolean, actorIdentityId: string | null = null): Promise<boolean> {
    const value = available ? SMS_GATEWAY_AVAILABLE : SMS_GATEWAY_UNAVAILABLE;
    await this.db
      .insertInto('properties')
      .values({ name: SMS_GATEWAY_STATUS, value })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
      .execute();
    const effective = await this.isAvailable();
    noteChange({
      event: 'SMS_GATEWAY_STATUS_CHANGED',
      fields: {
        actorIdentityId,
        property: SMS_GATEWAY_STATUS,
        value,
        isSmsGatewayAvailable: effective,
        smsSender: this.sender.kind,
      },
      committed: async (read) => (await findProperty(read, SMS_GATEWAY_STATUS)) === value,
    });
    return effective;
  }
}
