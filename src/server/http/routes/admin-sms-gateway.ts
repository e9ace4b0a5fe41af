// The admin's SMS gateway switch (contract/admin-sms-gateway.ts): admins only.
import type { FastifyInstance } from 'fastify';
import { adminSmsGatewayCalls as calls } from '../../../contract/admin-sms-gateway';
import { refuse } from '../../domain/errors';
import { NO_SMS_GATEWAY_MESSAGE } from '../../domain/factors/messages';
import { registerCall } from '../route';

export async function adminSmsGatewayRoutes(app: FastifyInstance): Promise<void> {
  const { factors } = app.services;

  // An admin call (route.ts): admins only, with a recent password entry, as every admin call. The
  // answer is what the servers will use. Switching codes on where no SMS gateway is configured
  // (SMS_GATEWAY_URL, in production) is refused with the reason, and changes nothing: the switch
  // would otherwise flip back to off with no word of why.
  registerCall(app, calls.setSmsGatewayStatus, { access: 'admin' }, async (ctx) => {
    if (ctx.body.isSmsGatewayAvailable && !factors.smsGateway.canSend) {
      throw refuse.unprocessable(NO_SMS_GATEWAY_MESSAGE, [
        { fieldName: 'isSmsGatewayAvailable', message: NO_SMS_GATEWAY_MESSAGE },
      ]);
    }
    return {
      isSmsGatewayAvailable: await factors.smsGateway.setAvailable(
        ctx.body.isSmsGatewayAvailable,
        ctx.identityId(),
      ),
    };
  });
}
