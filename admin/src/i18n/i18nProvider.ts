import polyglotI18nProvider from 'ra-i18n-polyglot';
import { zhTW } from './zhTW';

export const i18nProvider = polyglotI18nProvider(() => zhTW, 'zh-TW', [{ locale: 'zh-TW', name: '繁體中文' }], {
  allowMissing: false,
});
