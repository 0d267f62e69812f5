import englishMessages from 'ra-language-english';
import type { TranslationMessages } from 'react-admin';

// Placeholder until the complete Traditional Chinese message set lands.
export const zhTW: TranslationMessages = { ...englishMessages };
