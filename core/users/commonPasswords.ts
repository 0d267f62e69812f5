/**
 * Passwords guessed first: the most used ones in public breach lists, and those common in Taiwan
 * (注音/keyboard walks, 520 and 1314 love numbers). Lowercase. A password is refused when it is one
 * of these, or one of these followed by digits or symbols (`password2026!`, `admin123`), so the
 * list keeps the stems short. A small data module, so the back office checks the same list.
 */
export const COMMON_PASSWORDS: readonly string[] = [
  // stems (with anything only digits or symbols after them)
  'admin', 'administrator', 'root', 'test', 'tester', 'user', 'guest', 'demo', 'pass', 'passwd', 'password', 'passw0rd', 'p@ssw0rd',
  'p@ssword', 'secret', 'login', 'welcome', 'hello', 'love', 'iloveyou', 'letmein', 'changeme', 'default', 'master', 'super',
  'qwer', 'qwert', 'qwerty', 'qwertyuiop', 'asdf', 'asdfgh', 'asdfghjkl', 'zxcv', 'zxcvbn', 'zxcvbnm', 'qazwsx', 'wsxedc',
  '1qaz2wsx', 'zaq12wsx', '1q2w3e4r', '1q2w3e', 'q1w2e3r4', 'qwe', 'asd', 'zxc', 'abc', 'abcd', 'monkey', 'dragon', 'shadow',
  'sunshine', 'princess', 'football', 'baseball', 'basketball', 'soccer', 'superman', 'batman', 'starwars', 'pokemon', 'naruto',
  'whatever', 'trustno1', 'freedom', 'flower', 'angel', 'lovely', 'jesus', 'michael', 'jordan', 'charlie', 'summer', 'winter',
  'computer', 'internet', 'google', 'apple', 'samsung', 'iphone', 'taiwan', 'taipei', 'kaohsiung', 'taichung', 'china',
  'remit', 'shop', 'store', 'money', 'bank', 'cash', 'boss', 'manager', 'staff', 'office', 'company', 'system', 'server',
  'hello kitty', 'hellokitty', 'chocolate', 'cookie', 'banana', 'orange', 'purple', 'yellow', 'killer', 'hunter', 'ranger',
  'tigger', 'ginger', 'pepper', 'cheese', 'maggie', 'buster', 'daniel', 'thomas', 'andrew', 'joshua', 'george', 'matrix',
  'mustang', 'harley', 'access', 'secure', 'private', 'asdasd', 'qweqwe', 'zxczxc', 'wang', 'chen', 'lin', 'huang',
  // whole passwords (digits and mixes that are not sequences or repeats, which the rules catch anyway)
  '520520', '5201314', '1314520', '521521', '201314', '147258', '147258369', '159753', '159357', '753951', '258369',
  '123321', '123123123', '112233', '11223344', '121314', '789456', '789456123', '456789', '741852', '741852963', '963852',
  '123654', '123456a', 'a123456', 'aa123456', 'a12345', 'a1234567', 'a12345678', 'abc123', 'abc12345', 'abcd1234',
  '123abc', '123qwe', 'qwe123', 'qwer1234', 'asd123', 'zxc123', '1234qwer', '1234abcd', 'password1', '0000', '00000000',
  '88888888', '66666666', '168168', '168888', '886886', '886', '0800', '0912345678', '0987654321', '1234567890',
  'woaini', 'woaini1314', 'iloveu', 'loveyou', 'aini1314', 'caonima', 'wocao', 'nihao', 'zhang', 'liu',
];
