// The account page's texts in English and Simplified Chinese, and the language the browser asks for.
// Nothing here touches the DOM except applyTexts, which fills the elements marked data-i18n.

const texts = {
  en: {
    title: "Latch account", signIn: "Sign in", email: "Email", password: "Password", signInButton: "Sign in",
    codeHint: "This sign-in is from a new device. We emailed you a code.", code: "Code", verify: "Verify",
    totpHint: "This sign-in is from a new device. Enter the code from your authenticator app, or one of your recovery codes.",
    totpLabel: "Authenticator code or recovery code",
    passkeySignIn: "Sign in with a passkey", signUp: "Create an account", newPassword: "New password",
    passwordHint: "At least 8 characters, with upper- and lowercase letters and a digit; not a common password.",
    termsAgreement: "I have read and agree to the {terms} and the {privacy}.",
    termsOfService: "Terms of Service", privacyPolicy: "Privacy Policy",
    signUpButton: "Create account", signupCodeHint: "We emailed you a code to confirm your address.",
    signedInAs: "Signed in as", passkeys: "Passkeys", noPasskeys: "No passkeys yet.",
    passkeyName: "Name for the new passkey (optional)", addPasskey: "Add a passkey", devices: "Signed-in devices",
    signOutOthers: "Sign out all other devices", signOut: "Sign out", rename: "Rename", remove: "Remove",
    save: "Save", cancel: "Cancel", newName: "New name for {name}", thisDevice: "This device",
    signOutDevice: "Sign out", created: "Added {date}", lastUsed: "last used {date}", neverUsed: "never used",
    backedUp: "Synced", unknownDevice: "Unknown device", lastActive: "last active {date}",
    working: "Working…", signedIn: "Signed in.", signedOut: "Signed out.", codeSent: "We emailed you a code.",
    passkeyAdded: "Passkey “{name}” added.", passkeyRenamed: "Passkey renamed to “{name}”.",
    passkeyRemoved: "Passkey “{name}” removed.", othersSignedOut: "All other devices are signed out.",
    deviceSignedOut: "That device is signed out.", confirmRemove: "Remove the passkey “{name}”?",
    noWebAuthn: "This browser cannot use passkeys.", cancelled: "The passkey request was cancelled or timed out.",
    passkeyError: "The passkey could not be used ({name}).", network: "The server could not be reached.",
    unexpected: "Something went wrong (HTTP {status}).", removeLabel: "Remove {name}", renameLabel: "Rename {name}",
    signOutDeviceLabel: "Sign out {name}", browserName: "Web browser",
    signInAgain: "Sign out and sign in again, then try once more.",
    // Security (issue 19)
    security: "Security", holds: "Paused actions", noHolds: "No actions are paused.",
    holdsHint: "For your security, these actions are paused for a while after a security change.",
    holdItem: "{actions} paused until {date}", holdReason: "after: {reason}",
    antiPhishing: "Anti-phishing code",
    antiPhishingHint: "Every email we send you shows this code. An email that claims to be from us without it is not from us.",
    antiPhishingNone: "No anti-phishing code is set.", antiPhishingCurrent: "Your code:",
    antiPhishingNew: "New anti-phishing code (4–20 characters, no spaces)", antiPhishingSave: "Save code",
    antiPhishingRemove: "Remove code", antiPhishingSaved: "Anti-phishing code saved.",
    antiPhishingRemoved: "Anti-phishing code removed.",
    antiPhishingRecent: "Changing the anti-phishing code needs a sign-in within the last 10 minutes. Sign out, sign in again, then try once more.",
    recentEvents: "Recent security events", noEvents: "No security events yet.", moreEvents: "Show older events",
    notMe: "This wasn't me", notMeLabel: "This wasn't me: {event} {date}",
    confirmFreeze: "Freeze your account? Every device, passkey and device key is signed out at once, including this page. To use the account again you reset your password with a code we email you (and your authenticator or a recovery code when two-step verification is on).",
    frozenByOwner: "Your account is frozen and every device is signed out. To recover it, reset your password with a code we email you (and your authenticator code or a recovery code when two-step verification is on).",
    eventTimes: "{count} times", eventBy: "by {actor}", actorOwner: "you", actorFreezeLink: "freeze link", actorOperator: "support",
    // The freeze link from a security mail (issue 19 §3)
    freezeHeading: "Freeze my account?",
    freezeExplain: "Use this if you got a security email about something you did not do. Freezing signs out every device at once and stops every sign-in until you recover the account. Nothing else about the account changes.",
    freezeButton: "Freeze my account", freezeNotNow: "Not now",
    freezeDone: "Your request is done. If the link was valid and not used before, your account is now frozen: every device is signed out and nobody can sign in.",
    freezeNext: "To recover the account, reset your password: “Forgot password?” here or in the app, then the code we email you and a new password (with your authenticator code or a recovery code when two-step verification is on). After recovery, withdrawals stay paused for a while for your security.",
    freezeBadLink: "This freeze link is incomplete. Open it again from the email.",
    backToSignIn: "Back to sign-in", recoverNow: "Reset my password",
    // Password reset by emailed code (the way back into a frozen account too)
    forgotPassword: "Forgot password?", resetHeading: "Reset your password", sendResetCode: "Email me a code",
    resetHint: "If an account uses this address, we emailed it a code. Enter it with a new password.",
    resetButton: "Set the new password",
    secondFactorNeeded: "Two-step verification is on: enter the newest code we emailed you, and the code from your authenticator app or one of your recovery codes.",
    passwordReset: "Your password is reset and every device is signed out. Sign in with the new password.",
    // Sign in with the phone (issue 43 §3)
    phoneSignIn: "Sign in with your phone", phonePick: "Pick {number} on your phone",
    phoneHint: "Scan the code with the Latch app on your phone, check who is asking, then pick the same number there.",
    phoneQRLabel: "QR code to sign in with your phone: scan it with the Latch app",
    phoneWaiting: "Waiting for your phone…", phoneDenied: "The sign-in was denied on your phone.",
    phoneExpired: "The code expired before your phone approved it.", tryAgain: "Try again",
  },
  "zh-Hans": {
    title: "Latch 账号", signIn: "登录", email: "邮箱", password: "密码", signInButton: "登录",
    codeHint: "这是新设备登录，我们已向你的邮箱发送验证码。", code: "验证码", verify: "验证",
    totpHint: "这是新设备登录，请输入身份验证器中的验证码，或一个恢复码。",
    totpLabel: "验证器验证码或恢复码",
    passkeySignIn: "使用通行密钥登录", signUp: "注册账号", newPassword: "设置密码",
    passwordHint: "至少 8 位，须包含大写字母、小写字母和数字，且不能是常见密码。",
    termsAgreement: "我已阅读并同意{terms}和{privacy}",
    termsOfService: "《用户协议》", privacyPolicy: "《隐私政策》",
    signUpButton: "注册", signupCodeHint: "我们已向你的邮箱发送验证码，用于确认邮箱地址。",
    signedInAs: "已登录：", passkeys: "通行密钥", noPasskeys: "还没有通行密钥。",
    passkeyName: "新通行密钥的名称（可选）", addPasskey: "添加通行密钥", devices: "已登录的设备",
    signOutOthers: "退出其他所有设备", signOut: "退出登录", rename: "重命名", remove: "删除",
    save: "保存", cancel: "取消", newName: "{name} 的新名称", thisDevice: "本设备",
    signOutDevice: "退出", created: "添加于 {date}", lastUsed: "上次使用 {date}", neverUsed: "从未使用",
    backedUp: "已同步", unknownDevice: "未知设备", lastActive: "上次活动 {date}",
    working: "处理中…", signedIn: "已登录。", signedOut: "已退出登录。", codeSent: "验证码已发送到你的邮箱。",
    passkeyAdded: "已添加通行密钥“{name}”。", passkeyRenamed: "通行密钥已重命名为“{name}”。",
    passkeyRemoved: "已删除通行密钥“{name}”。", othersSignedOut: "其他所有设备均已退出登录。",
    deviceSignedOut: "该设备已退出登录。", confirmRemove: "删除通行密钥“{name}”？",
    noWebAuthn: "此浏览器无法使用通行密钥。", cancelled: "通行密钥请求已取消或超时。",
    passkeyError: "无法使用通行密钥（{name}）。", network: "无法连接服务器。",
    unexpected: "出现错误（HTTP {status}）。", removeLabel: "删除 {name}", renameLabel: "重命名 {name}",
    signOutDeviceLabel: "退出 {name}", browserName: "网页浏览器",
    signInAgain: "请退出后重新登录，再试一次。",
    security: "账号安全", holds: "已暂停的操作", noHolds: "当前没有暂停的操作。",
    holdsHint: "为保障资金安全，安全设置变更后以下操作将暂停一段时间。",
    holdItem: "{actions}暂停至 {date}", holdReason: "原因：{reason}",
    antiPhishing: "防钓鱼码",
    antiPhishingHint: "我们发给你的每封邮件都会显示此防钓鱼码。自称来自我们却没有此码的邮件不是我们发送的。",
    antiPhishingNone: "尚未设置防钓鱼码。", antiPhishingCurrent: "你的防钓鱼码：",
    antiPhishingNew: "新防钓鱼码（4–20 个字符，不含空格）", antiPhishingSave: "保存防钓鱼码",
    antiPhishingRemove: "删除防钓鱼码", antiPhishingSaved: "防钓鱼码已保存。",
    antiPhishingRemoved: "防钓鱼码已删除。",
    antiPhishingRecent: "修改防钓鱼码需要在 10 分钟内登录过。请退出后重新登录，再试一次。",
    recentEvents: "最近的安全记录", noEvents: "暂无安全记录。", moreEvents: "查看更早的记录",
    notMe: "不是我本人操作", notMeLabel: "不是我本人操作：{event} {date}",
    confirmFreeze: "冻结账号？所有设备、通行密钥和设备密钥将立即退出，包括本页面。之后需通过邮箱验证码重置密码（已开启两步验证时还需验证器验证码或恢复码）才能恢复使用。",
    frozenByOwner: "账号已冻结，所有设备均已退出登录。如需恢复，请通过邮箱验证码重置密码（已开启两步验证时还需验证器验证码或恢复码）。",
    eventTimes: "{count} 次", eventBy: "操作方：{actor}", actorOwner: "本人", actorFreezeLink: "冻结链接", actorOperator: "客服",
    freezeHeading: "冻结我的账号？",
    freezeExplain: "如果你收到的安全通知邮件所述操作并非本人所为，请冻结账号。冻结后所有设备立即退出登录，在恢复账号前任何人都无法登录。账号的其他内容不会改变。",
    freezeButton: "冻结我的账号", freezeNotNow: "暂不冻结",
    freezeDone: "已处理。如果该链接有效且未被使用过，你的账号现已冻结：所有设备均已退出登录，任何人都无法登录。",
    freezeNext: "如需恢复账号，请重置密码：在此页或 App 中选择“忘记密码”，输入邮箱收到的验证码并设置新密码（已开启两步验证时还需验证器验证码或恢复码）。为保障资金安全，恢复后提现将暂停一段时间。",
    freezeBadLink: "此冻结链接不完整，请从邮件中重新打开。",
    backToSignIn: "返回登录", recoverNow: "立即重置密码",
    forgotPassword: "忘记密码？", resetHeading: "重置密码", sendResetCode: "发送验证码",
    resetHint: "如果该邮箱已注册账号，我们已向其发送验证码。请输入验证码并设置新密码。",
    resetButton: "设置新密码",
    secondFactorNeeded: "已开启两步验证：请输入邮箱中最新的验证码，以及身份验证器中的验证码或一个恢复码。",
    passwordReset: "密码已重置，所有设备均已退出登录。请使用新密码登录。",
    phoneSignIn: "使用手机扫码登录", phonePick: "请在手机上选择 {number}",
    phoneHint: "请用手机上的 Latch App 扫描二维码，核对登录请求后，在手机上选择相同的数字。",
    phoneQRLabel: "手机扫码登录的二维码：请用 Latch App 扫描",
    phoneWaiting: "正在等待手机确认…", phoneDenied: "已在手机上拒绝此次登录。",
    phoneExpired: "二维码已过期，手机未确认。", tryAgain: "重试",
  },
};

// Security event names (GET /v1/security-events `type`), both languages; an unknown type shows as sent.
const eventNames = {
  registered: ["Account created", "注册账号"], signed_in: ["Signed in", "登录"],
  sign_in_failed: ["Failed sign-in", "登录失败"], code_failed: ["Wrong code entered", "验证码错误"],
  locked: ["Sign-in paused after failures", "多次失败后暂停登录"],
  refresh_token_reused: ["A used sign-in token came back", "已使用的登录凭证被再次使用"],
  signed_out: ["Signed out", "退出登录"], session_revoked: ["A device was signed out", "设备已退出登录"],
  other_sessions_revoked: ["Other devices signed out", "其他设备已退出登录"],
  password_reset_requested: ["Password reset asked for", "申请重置密码"], password_reset: ["Password reset", "密码已重置"],
  password_changed: ["Password changed", "密码已修改"], profile_updated: ["Profile changed", "资料已修改"],
  totp_enrolled: ["Two-step verification set-up started", "开始设置两步验证"],
  totp_activated: ["Two-step verification turned on", "两步验证已开启"],
  totp_disabled: ["Two-step verification turned off", "两步验证已关闭"], totp_reset: ["Two-step verification reset", "两步验证已重置"],
  recovery_code_used: ["Recovery code used", "已使用恢复码"], fund_password_set: ["Fund password set", "资金密码已设置"],
  fund_password_changed: ["Fund password changed", "资金密码已修改"], fund_password_reset: ["Fund password reset", "资金密码已重置"],
  verification_failed: ["Verification failed", "身份验证失败"], verification_passed: ["Verification passed", "身份验证通过"],
  verification_redeemed: ["Verified action carried out", "已验证的操作已执行"],
  device_bound: ["Device key added", "已绑定设备密钥"], device_unbound: ["Device key removed", "已解绑设备密钥"],
  device_keys_removed: ["Device keys removed", "设备密钥已移除"], new_device_signed_in: ["Sign-in from a new device", "新设备登录"],
  security_settings_changed: ["Security settings changed", "安全设置已修改"],
  identity_linked: ["Account linked", "已关联第三方账号"], identity_unlinked: ["Account unlinked", "已解除第三方账号关联"],
  account_deleted: ["Account deleted", "账号已注销"], account_unlocked: ["Account unlocked by support", "客服已解锁账号"],
  account_disabled: ["Account disabled", "账号已停用"], account_enabled: ["Account enabled", "账号已启用"],
  signed_out_everywhere: ["Signed out everywhere", "所有设备已退出登录"],
  passkey_added: ["Passkey added", "已添加通行密钥"], passkey_removed: ["Passkey removed", "已删除通行密钥"],
  passkey_counter_regressed: ["Passkey may be copied", "通行密钥疑似被复制"],
  account_frozen: ["Account frozen", "账号已冻结"], account_unfrozen: ["Account recovered", "账号已解冻"],
  security_reset: ["Everything signed out", "安全重置：全部退出登录"],
  security_hold_started: ["Actions paused", "操作已暂停"], security_hold_ended: ["Actions resumed", "操作已恢复"],
  anti_phishing_code_changed: ["Anti-phishing code changed", "防钓鱼码已修改"],
  verification_policy_applied: ["Two verifications asked for", "需要两项验证"],
  verification_limit_reached: ["Daily limit reached", "已达每日额度"],
  new_value_locked: ["New address waiting", "新地址等待期"],
  dpop_refused: ["Copied sign-in token refused", "已拒绝被复制的登录凭证"],
};

// Why a hold runs (`reason`), both languages.
const holdReasons = {
  password_reset: ["password reset", "重置密码"], password_changed: ["password changed", "修改密码"],
  totp_disabled: ["two-step verification turned off", "关闭两步验证"], totp_reset: ["two-step verification reset", "重置两步验证"],
  fund_password_changed: ["fund password changed", "修改资金密码"], fund_password_reset: ["fund password reset", "重置资金密码"],
  passkey_added: ["passkey added", "添加通行密钥"], device_key_added: ["device key added", "绑定设备密钥"],
  email_changed: ["email changed", "更换邮箱"], phone_changed: ["phone number changed", "更换手机号"],
  identity_linked: ["account linked", "关联第三方账号"], unfrozen: ["account recovered", "账号解冻"],
};

// The app's held action names that have a name of their own; others show as configured.
const actionNames = { withdrawal: ["Withdrawals", "提现"], internal_transfer: ["Internal transfers", "内部转账"] };

/** zh-Hans for any Chinese preference that comes before an English one, else English. */
export function chooseLanguage(preferences) {
  for (const raw of preferences || []) {
    const tag = String(raw).toLowerCase();
    if (tag.startsWith("zh")) return "zh-Hans";
    if (tag.startsWith("en")) return "en";
  }
  return "en";
}

export const language = chooseLanguage(
  navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]);

const dateFormat = new Intl.DateTimeFormat(language === "zh-Hans" ? "zh-Hans-CN" : "en",
  { dateStyle: "medium", timeStyle: "short" });

/** The text `key` in the page's language, with `{name}` placeholders filled from `values`. */
export function t(key, values) {
  let text = texts[language][key] || texts.en[key] || key;
  for (const [name, value] of Object.entries(values || {})) text = text.split("{" + name + "}").join(String(value));
  return text;
}

function pick(pair, fallback) { return pair ? pair[language === "zh-Hans" ? 1 : 0] : fallback; }

export function eventName(type) { return pick(eventNames[type], type); }
export function holdReasonName(reason) { return pick(holdReasons[reason], reason); }
export function actionName(action) { return pick(actionNames[action], action); }

export function formatDate(value) {
  const date = new Date(value);
  return isNaN(date) ? String(value) : dateFormat.format(date);
}

/** Sets the document's language and fills every `data-i18n` element with its text. */
export function applyTexts(root) {
  root.documentElement.lang = language;
  for (const element of root.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
  root.title = t("title");
}
