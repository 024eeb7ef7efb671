/**
 * An image captcha for a form: a fresh one on mount, on a click on the picture, and after every
 * failed attempt (the server spends a captcha on any check, right or wrong).
 */
import { useCallback, useEffect, useState } from 'react';
import { captchaImageUrl, createCaptcha } from '../../api/common';

export interface Captcha {
  captchaId: number;
  imageUrl: string;
  refresh(): Promise<void>;
}

export function useCaptcha(): Captcha {
  const [captchaId, setCaptchaId] = useState(0);
  const refresh = useCallback(async () => {
    try {
      setCaptchaId(await createCaptcha());
    } catch {
      setCaptchaId(0); // the alert has been shown; clicking the picture tries again
    }
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  return { captchaId, imageUrl: captchaId ? captchaImageUrl(captchaId) : '', refresh };
}
