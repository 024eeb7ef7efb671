/** Site-level calls: landing settings, captcha, third-party login entrance. */
import type { HomePageSetting, OauthInfo } from './types';
import { request } from './request';

export const homePageSetting = () =>
  request<HomePageSetting>('common/homePageSetting', {}, { alert: false });

export async function createCaptcha(): Promise<number> {
  const data = await request<{ captcha_id: number | string }>('common/createCaptcha');
  return Number(data.captcha_id);
}

/** The captcha picture; `nonce` makes the browser fetch a fresh drawing of the same captcha. */
export const captchaImageUrl = (captchaId: number, nonce = 0) =>
  `/api/common/showCaptcha?captcha_id=${captchaId}${nonce ? `&_=${nonce}` : ''}`;

export const oauthInfo = () => request<OauthInfo>('user/oauthInfo', {}, { alert: false });

/** The third-party login entrance (a browser navigation, not an API call). */
export const oauthLoginUrl = (redirect: string) =>
  `/api/ExtLogin/oauth2?redirect=${encodeURIComponent(redirect)}`;

/** A QR code picture of `url` (share dialog). */
export const qrCodeUrl = (url: string) =>
  `/api/common/qrcode?size=3&url=${encodeURIComponent(url)}`;
