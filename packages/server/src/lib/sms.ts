import type { Config } from '../config.js';

export type SmsConfig = Pick<Config, 'smsWebhook' | 'smsWebhookToken' | 'smsTimeoutMs'>;

/**
 * POST one JSON body to the SMS gateway the administrator configured (`CSMS_SMS_WEBHOOK_URL`), with
 * `CSMS_SMS_WEBHOOK_TOKEN` as a bearer token when set. A 2xx answer within `smsTimeoutMs` counts as
 * delivered; anything else throws (the message says what happened, for the server log). The URL is the
 * administrator's, never taken from the API, so the outbound guard of operator-typed addresses does not
 * apply (an internal gateway is the usual case); a redirect is refused so that the gateway cannot send
 * the message elsewhere.
 */
export async function postSms(config: SmsConfig, body: unknown): Promise<void> {
  if (!config.smsWebhook) throw new Error('no SMS webhook configured');
  const res = await fetch(config.smsWebhook, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(config.smsWebhookToken ? { authorization: `Bearer ${config.smsWebhookToken}` } : {}),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(config.smsTimeoutMs),
    redirect: 'error',
  });
  await res.body?.cancel();
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
}
