import { formatDateTime } from "./dates";
import type { Language } from "./i18n";

/*
 * The audit log's identifiers in words: what was changed (entity), what was done (action) and which
 * field changed, in each language. The server records identifiers (stable, filterable); the viewer
 * shows these, and the raw identifier where a module adds one we do not know yet.
 */

type Labels = Record<Language, Record<string, string>>;

export const AUDIT_ENTITIES = [
  "user",
  "user_role",
  "user_group",
  "role",
  "role_permission",
  "group",
  "group_member",
  "session",
  "tenant",
  "currency",
  "tenant_currencies",
  "tenant_settings",
  "closed_period",
  "oidc_client",
  "signing_key",
  "payment",
  "expense",
  "money_account",
  "debt",
  "payment_category",
  "expense_category",
  "gl_account",
  "gl_chart",
  "journal_entry",
  "counterparty",
  "inventory_item",
  "upload",
  "crm_client",
  "crm_chat",
  "warehouse_product",
  "warehouse_location",
  "warehouse_order",
  "warehouse_stock",
  "project",
  "project_stage",
  "employee",
  "oidc_grant",
  "oidc_consent",
] as const;

export const AUDIT_ENTITY_LABELS: Labels = {
  en: {
    user: "User",
    user_role: "User's roles",
    user_group: "User's groups",
    role: "Role",
    role_permission: "Role's permissions",
    group: "Group",
    group_member: "Group members",
    session: "Session",
    tenant: "Organization",
    currency: "Currency",
    tenant_currencies: "Organization's currencies",
    tenant_settings: "Organization's settings",
    closed_period: "Closed period",
    oidc_client: "OIDC client",
    signing_key: "Signing key",
    payment: "Payment",
    expense: "Expense",
    money_account: "Money account",
    debt: "Debt",
    payment_category: "Payment category",
    gl_account: "Account of the chart of accounts",
    gl_chart: "Chart of accounts",
    journal_entry: "Journal entry",
    expense_category: "Expense category",
    counterparty: "Counterparty",
    inventory_item: "Inventory item",
    upload: "File",
    crm_client: "Client",
    crm_chat: "Chat",
    warehouse_product: "Product",
    warehouse_location: "Warehouse location",
    warehouse_order: "Order",
    warehouse_stock: "Stock",
    project: "Project",
    project_stage: "Project stage",
    employee: "Employee",
    oidc_grant: "App access (OIDC)",
    oidc_consent: "App consent (OIDC)",
  },
  ru: {
    user: "Пользователь",
    user_role: "Роли пользователя",
    user_group: "Группы пользователя",
    role: "Роль",
    role_permission: "Права роли",
    group: "Группа",
    group_member: "Участники группы",
    session: "Сеанс",
    tenant: "Организация",
    currency: "Валюта",
    tenant_currencies: "Валюты организации",
    tenant_settings: "Настройки организации",
    closed_period: "Закрытый период",
    oidc_client: "Клиент OIDC",
    signing_key: "Ключ подписи",
    payment: "Поступление",
    expense: "Расход",
    money_account: "Денежный счёт",
    debt: "Долг",
    payment_category: "Статья поступлений",
    gl_account: "Счёт плана счетов",
    gl_chart: "План счетов",
    journal_entry: "Бухгалтерская проводка",
    expense_category: "Статья расходов",
    counterparty: "Контрагент",
    inventory_item: "Товарно-материальная ценность",
    upload: "Файл",
    crm_client: "Клиент",
    crm_chat: "Переписка",
    warehouse_product: "Товар",
    warehouse_location: "Склад",
    warehouse_order: "Заказ",
    warehouse_stock: "Остаток на складе",
    project: "Проект",
    project_stage: "Этап проекта",
    employee: "Сотрудник",
    oidc_grant: "Доступ приложения (OIDC)",
    oidc_consent: "Согласие для приложения (OIDC)",
  },
  uz: {
    user: "Foydalanuvchi",
    user_role: "Foydalanuvchi rollari",
    user_group: "Foydalanuvchi guruhlari",
    role: "Rol",
    role_permission: "Rol huquqlari",
    group: "Guruh",
    group_member: "Guruh aʼzolari",
    session: "Seans",
    tenant: "Tashkilot",
    currency: "Valyuta",
    tenant_currencies: "Tashkilot valyutalari",
    tenant_settings: "Tashkilot sozlamalari",
    closed_period: "Yopilgan davr",
    oidc_client: "OIDC mijozi",
    signing_key: "Imzo kaliti",
    payment: "Tushum",
    expense: "Xarajat",
    money_account: "Pul hisobi",
    debt: "Qarz",
    payment_category: "Tushum moddasi",
    gl_account: "Schyotlar rejasidagi schyot",
    gl_chart: "Schyotlar rejasi",
    journal_entry: "Buxgalteriya yozuvi",
    expense_category: "Xarajat moddasi",
    counterparty: "Kontragent",
    inventory_item: "Tovar-moddiy boylik",
    upload: "Fayl",
    crm_client: "Mijoz",
    crm_chat: "Yozishma",
    warehouse_product: "Mahsulot",
    warehouse_location: "Ombor",
    warehouse_order: "Buyurtma",
    warehouse_stock: "Ombordagi qoldiq",
    project: "Loyiha",
    project_stage: "Loyiha bosqichi",
    employee: "Xodim",
    oidc_grant: "Ilovaga ruxsat (OIDC)",
    oidc_consent: "Ilova uchun rozilik (OIDC)",
  },
};

export const AUDIT_ACTIONS = [
  "create",
  "update",
  "delete",
  "assign",
  "unassign",
  "set",
  "grant",
  "revoke",
  "add",
  "remove",
  "select",
  "sign_in",
  "sign_in_failed",
  "end",
  "end_all",
  "rotate",
  "rotate_secret",
  "retire",
  "settle",
  "reverse_settlement",
  "write_off",
  "confirm",
  "cancel",
  "fulfil",
  "adjust",
  "move",
  "reorder_stages",
  "set_opening_balance",
  "sign_out",
  "issue",
  "refresh",
  "revoke_replay",
  "deny",
  "post",
  "reverse",
  "revalue",
  "reparent",
] as const;

export const AUDIT_ACTION_LABELS: Labels = {
  en: {
    create: "created",
    update: "changed",
    delete: "deleted",
    assign: "assigned",
    unassign: "unassigned",
    set: "replaced",
    grant: "granted",
    revoke: "revoked",
    add: "added",
    remove: "removed",
    select: "selected",
    sign_in: "signed in",
    sign_in_failed: "sign-in failed",
    end: "ended",
    end_all: "all ended",
    rotate: "rotated",
    rotate_secret: "secret rotated",
    retire: "retired",
    settle: "settled",
    reverse_settlement: "settlement reversed",
    write_off: "written off",
    confirm: "confirmed",
    cancel: "cancelled",
    fulfil: "fulfilled",
    adjust: "adjusted",
    move: "stock moved",
    reorder_stages: "stages reordered",
    set_opening_balance: "opening balance set",
    sign_out: "signed out",
    issue: "tokens issued",
    refresh: "tokens refreshed",
    revoke_replay: "revoked: credential used twice",
    deny: "denied",
    post: "posted",
    reverse: "reversed",
    revalue: "revalued (exchange differences posted)",
    reparent: "moved under another parent",
  },
  ru: {
    create: "создание",
    update: "изменение",
    delete: "удаление",
    assign: "назначение",
    unassign: "снятие",
    set: "замена",
    grant: "выдача",
    revoke: "отзыв",
    add: "добавление",
    remove: "исключение",
    select: "выбор",
    sign_in: "вход",
    sign_in_failed: "неудачный вход",
    end: "завершение",
    end_all: "завершение всех",
    rotate: "смена",
    rotate_secret: "смена секрета",
    retire: "вывод из работы",
    settle: "погашение",
    reverse_settlement: "отмена погашения",
    write_off: "списание",
    confirm: "подтверждение",
    cancel: "отмена",
    fulfil: "исполнение",
    adjust: "корректировка",
    move: "движение",
    reorder_stages: "новый порядок этапов",
    set_opening_balance: "начальный остаток",
    sign_out: "выход",
    issue: "выдача токенов",
    refresh: "обновление токенов",
    revoke_replay: "отзыв: повторное использование",
    deny: "отказ",
    post: "проведение",
    reverse: "сторнирование",
    revalue: "переоценка (курсовые разницы проведены)",
    reparent: "перенос под другой счёт",
  },
  uz: {
    create: "yaratish",
    update: "oʻzgartirish",
    delete: "oʻchirish",
    assign: "tayinlash",
    unassign: "olib tashlash",
    set: "almashtirish",
    grant: "berish",
    revoke: "qaytarib olish",
    add: "qoʻshish",
    remove: "chiqarish",
    select: "tanlash",
    sign_in: "kirish",
    sign_in_failed: "muvaffaqiyatsiz kirish",
    end: "tugatish",
    end_all: "barchasini tugatish",
    rotate: "almashtirish",
    rotate_secret: "sirni almashtirish",
    retire: "ishdan chiqarish",
    settle: "soʻndirish",
    reverse_settlement: "soʻndirishni bekor qilish",
    write_off: "hisobdan chiqarish",
    confirm: "tasdiqlash",
    cancel: "bekor qilish",
    fulfil: "bajarish",
    adjust: "tuzatish",
    move: "harakat",
    reorder_stages: "bosqichlar tartibi",
    set_opening_balance: "boshlangʻich qoldiq",
    sign_out: "chiqish",
    issue: "tokenlar berildi",
    refresh: "tokenlar yangilandi",
    revoke_replay: "qaytarib olindi: takror ishlatilgan",
    deny: "rad etildi",
    post: "oʻtkazildi",
    reverse: "storno qilindi",
    revalue: "qayta baholandi (kurs farqlari oʻtkazildi)",
    reparent: "boshqa schyot ostiga koʻchirildi",
  },
};

/** The fields services record in before/after (a module's new field shows as its identifier). */
export const AUDIT_FIELD_LABELS: Labels = {
  en: {
    email: "Email",
    firstName: "First name",
    lastName: "Last name",
    uiLanguage: "Language",
    active: "Active",
    avatarUrl: "Avatar",
    hasPassword: "Has a password",
    passwordChanged: "Password changed",
    passwordSet: "Password set",
    roles: "Roles",
    groups: "Groups",
    permissions: "Permissions",
    roleIds: "Roles",
    roleId: "Role",
    groupIds: "Groups",
    userIds: "Users",
    users: "Users",
    createdAt: "Created",
    updatedAt: "Changed",
    userId: "User",
    name: "Name",
    description: "Description",
    domain: "Domain",
    isPlatform: "Platform",
    currencies: "Currencies",
    codes: "Currencies",
    admin: "Administrator",
    code: "Code",
    symbol: "Symbol",
    minorUnits: "Decimals",
    reason: "Reason",
    amount: "Amount",
    currency: "Currency",
    date: "Date",
    lockDate: "Books closed through",
    note: "Note",
    settlementId: "Settlement",
    clientId: "Client ID",
    clientName: "Client name",
    redirectUris: "Redirect URIs",
    grantTypes: "Grant types",
    scopes: "Scopes",
    requirePkce: "Require PKCE",
    firstParty: "First-party",
    applicationType: "Application type",
    isActive: "Active",
    isPublic: "Public client",
    isFirstParty: "First-party",
    responseTypes: "Response types",
    postLogoutRedirectUris: "Sign-out redirect URIs",
    webOrigins: "Web origins",
    accessTokenLifetime: "Access token lifetime, s",
    refreshTokenLifetime: "Refresh token lifetime, s",
    idTokenLifetime: "ID token lifetime, s",
    userCount: "Users",
    ended: "Sessions ended",
    failures: "Failed attempts",
    emails: "Emails tried",
    windowFrom: "Period start",
    windowTo: "Period end",
    lastAt: "Last attempt",
    salary: "Salary",
    salaryCurrency: "Salary currency",
    position: "Position",
    department: "Department",
    hireDate: "Hired",
    sku: "SKU",
    unit: "Unit",
    price: "Price",
    unitPrice: "Unit price",
    barcode: "Barcode",
    quantity: "Quantity",
    change: "Change",
    status: "Status",
    total: "Total",
    budget: "Budget",
    stageIds: "Stages",
    orderId: "Order",
    productId: "Product",
    locationId: "Location",
    size: "Size",
    accountId: "Account",
    fromAccountId: "From account",
    toAccountId: "To account",
    createdBy: "Created by",
    expiresAt: "Expires",
    userAgent: "Browser",
    ip: "IP address",
    counterpartyId: "Counterparty",
    categoryId: "Category",
    glAccountId: "Account of the chart of accounts",
    comment: "Comment",
    sessionId: "Session",
    balance: "Balance",
    dueDate: "Due date",
    scope: "Scopes",
    grantId: "Grant",
    clientIp: "IP address",
    rate: "Rate",
    type: "Type",
    kind: "Kind",
    phone: "Phone",
    subject: "Subject",
    title: "Title",
    transactionId: "Ledger entry",
    number: "Number",
    allowOverdraft: "Overdraft allowed",
    id: "ID",
  },
  ru: {
    email: "Эл. почта",
    firstName: "Имя",
    lastName: "Фамилия",
    uiLanguage: "Язык",
    active: "Активен",
    avatarUrl: "Аватар",
    hasPassword: "Есть пароль",
    passwordChanged: "Пароль изменён",
    passwordSet: "Пароль задан",
    roles: "Роли",
    groups: "Группы",
    permissions: "Права",
    roleIds: "Роли",
    roleId: "Роль",
    groupIds: "Группы",
    userIds: "Пользователи",
    users: "Пользователи",
    createdAt: "Создан",
    updatedAt: "Изменён",
    userId: "Пользователь",
    name: "Название",
    description: "Описание",
    domain: "Домен",
    isPlatform: "Платформа",
    currencies: "Валюты",
    codes: "Валюты",
    admin: "Администратор",
    code: "Код",
    symbol: "Символ",
    minorUnits: "Знаков после запятой",
    reason: "Причина",
    amount: "Сумма",
    currency: "Валюта",
    date: "Дата",
    lockDate: "Книги закрыты по",
    note: "Примечание",
    settlementId: "Погашение",
    clientId: "ID клиента",
    clientName: "Название клиента",
    redirectUris: "Адреса возврата",
    grantTypes: "Типы грантов",
    scopes: "Области доступа",
    requirePkce: "Требовать PKCE",
    firstParty: "Собственный",
    applicationType: "Тип приложения",
    isActive: "Активен",
    isPublic: "Публичный клиент",
    isFirstParty: "Собственное приложение",
    responseTypes: "Типы ответа",
    postLogoutRedirectUris: "Адреса после выхода",
    webOrigins: "Веб-источники",
    accessTokenLifetime: "Срок токена доступа, с",
    refreshTokenLifetime: "Срок токена обновления, с",
    idTokenLifetime: "Срок ID-токена, с",
    userCount: "Пользователей",
    ended: "Завершено сеансов",
    failures: "Неудачных попыток",
    emails: "Введённые адреса",
    windowFrom: "Начало периода",
    windowTo: "Конец периода",
    lastAt: "Последняя попытка",
    salary: "Оклад",
    salaryCurrency: "Валюта оклада",
    position: "Должность",
    department: "Отдел",
    hireDate: "Дата приёма",
    sku: "Артикул",
    unit: "Единица",
    price: "Цена",
    unitPrice: "Цена за единицу",
    barcode: "Штрихкод",
    quantity: "Количество",
    change: "Изменение",
    status: "Статус",
    total: "Итого",
    budget: "Бюджет",
    stageIds: "Этапы",
    orderId: "Заказ",
    productId: "Товар",
    locationId: "Склад",
    size: "Размер",
    accountId: "Счёт",
    fromAccountId: "Со счёта",
    toAccountId: "На счёт",
    createdBy: "Автор",
    expiresAt: "Действует до",
    userAgent: "Браузер",
    ip: "IP-адрес",
    counterpartyId: "Контрагент",
    categoryId: "Статья",
    glAccountId: "Счёт плана счетов",
    comment: "Комментарий",
    sessionId: "Сеанс",
    balance: "Остаток",
    dueDate: "Срок",
    scope: "Области доступа",
    grantId: "Разрешение",
    clientIp: "IP-адрес",
    rate: "Курс",
    type: "Тип",
    kind: "Вид",
    phone: "Телефон",
    subject: "Тема",
    title: "Заголовок",
    transactionId: "Проводка",
    number: "Номер",
    allowOverdraft: "Разрешён овердрафт",
    id: "ID",
  },
  uz: {
    email: "Elektron pochta",
    firstName: "Ism",
    lastName: "Familiya",
    uiLanguage: "Til",
    active: "Faol",
    avatarUrl: "Avatar",
    hasPassword: "Paroli bor",
    passwordChanged: "Parol oʻzgartirildi",
    passwordSet: "Parol oʻrnatildi",
    roles: "Rollar",
    groups: "Guruhlar",
    permissions: "Huquqlar",
    roleIds: "Rollar",
    roleId: "Rol",
    groupIds: "Guruhlar",
    userIds: "Foydalanuvchilar",
    users: "Foydalanuvchilar",
    createdAt: "Yaratilgan",
    updatedAt: "Oʻzgartirilgan",
    userId: "Foydalanuvchi",
    name: "Nomi",
    description: "Tavsif",
    domain: "Domen",
    isPlatform: "Platforma",
    currencies: "Valyutalar",
    codes: "Valyutalar",
    admin: "Administrator",
    code: "Kod",
    symbol: "Belgi",
    minorUnits: "Kasr xonalari",
    reason: "Sabab",
    amount: "Summa",
    currency: "Valyuta",
    date: "Sana",
    lockDate: "Hisob yopilgan sana",
    note: "Izoh",
    settlementId: "Soʻndirish",
    clientId: "Mijoz ID",
    clientName: "Mijoz nomi",
    redirectUris: "Qaytish manzillari",
    grantTypes: "Grant turlari",
    scopes: "Ruxsat doiralari",
    requirePkce: "PKCE talab qilinsin",
    firstParty: "Oʻzimizniki",
    applicationType: "Ilova turi",
    isActive: "Faol",
    isPublic: "Ochiq mijoz",
    isFirstParty: "Oʻz ilovamiz",
    responseTypes: "Javob turlari",
    postLogoutRedirectUris: "Chiqishdan keyingi manzillar",
    webOrigins: "Veb manbalar",
    accessTokenLifetime: "Kirish tokeni muddati, s",
    refreshTokenLifetime: "Yangilash tokeni muddati, s",
    idTokenLifetime: "ID token muddati, s",
    userCount: "Foydalanuvchilar soni",
    ended: "Tugatilgan seanslar",
    failures: "Muvaffaqiyatsiz urinishlar",
    emails: "Kiritilgan manzillar",
    windowFrom: "Davr boshi",
    windowTo: "Davr oxiri",
    lastAt: "Oxirgi urinish",
    salary: "Maosh",
    salaryCurrency: "Maosh valyutasi",
    position: "Lavozim",
    department: "Boʻlim",
    hireDate: "Ishga qabul sanasi",
    sku: "Artikul",
    unit: "Oʻlchov birligi",
    price: "Narx",
    unitPrice: "Birlik narxi",
    barcode: "Shtrix-kod",
    quantity: "Miqdor",
    change: "Oʻzgarish",
    status: "Holat",
    total: "Jami",
    budget: "Byudjet",
    stageIds: "Bosqichlar",
    orderId: "Buyurtma",
    productId: "Mahsulot",
    locationId: "Ombor",
    size: "Hajmi",
    accountId: "Hisob",
    fromAccountId: "Qaysi hisobdan",
    toAccountId: "Qaysi hisobga",
    createdBy: "Muallif",
    expiresAt: "Amal qilish muddati",
    userAgent: "Brauzer",
    ip: "IP manzil",
    counterpartyId: "Kontragent",
    categoryId: "Modda",
    glAccountId: "Schyotlar rejasidagi schyot",
    comment: "Izoh",
    sessionId: "Seans",
    balance: "Qoldiq",
    dueDate: "Muddat",
    scope: "Ruxsat doiralari",
    grantId: "Ruxsatnoma",
    clientIp: "IP manzil",
    rate: "Kurs",
    type: "Turi",
    kind: "Koʻrinishi",
    phone: "Telefon",
    subject: "Mavzu",
    title: "Sarlavha",
    transactionId: "Buxgalteriya yozuvi",
    number: "Raqam",
    allowOverdraft: "Overdraftga ruxsat",
    id: "ID",
  },
};

const label = (labels: Labels, language: Language, id: string) => labels[language][id] ?? id;

export const auditEntityLabel = (language: Language, id: string) => label(AUDIT_ENTITY_LABELS, language, id);
export const auditActionLabel = (language: Language, id: string) => label(AUDIT_ACTION_LABELS, language, id);
export const auditFieldLabel = (language: Language, id: string) => label(AUDIT_FIELD_LABELS, language, id);

/** Yes and no as the audit viewer shows a recorded true or false. */
export const AUDIT_BOOLEAN_LABELS: Record<Language, { true: string; false: string }> = {
  en: { true: "Yes", false: "No" },
  ru: { true: "Да", false: "Нет" },
  uz: { true: "Ha", false: "Yoʻq" },
};

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * A recorded value as a person reads it: true/false as words, times in the user's format, a list as
 * its names (a role is `{ id, name }`), nothing as a dash; anything else as it was recorded.
 */
export const auditValue = (language: Language, value: unknown): string => {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") return AUDIT_BOOLEAN_LABELS[language][value ? "true" : "false"];
  if (typeof value === "string") return ISO_TIME.test(value) ? formatDateTime(language, value) : value;
  if (Array.isArray(value))
    return value.length === 0 ? "—" : value.map((item) => auditValue(language, item)).join(", ");
  if (typeof value === "object") return referenceText(language, value as Record<string, unknown>);
  return String(value);
};

/**
 * A recorded object as words, never JSON: a reference by its name or email (a role, an administrator),
 * a person by their name, else each field as "Label: value".
 */
const referenceText = (language: Language, value: Record<string, unknown>): string => {
  for (const key of ["name", "email", "clientName", "code"]) {
    if (typeof value[key] === "string" && value[key] !== "") return value[key] as string;
  }
  const person = [value.firstName, value.lastName].filter((part) => typeof part === "string" && part);
  if (person.length > 0) return person.join(" ");
  const entries = Object.entries(value).filter(([, inner]) => inner !== undefined);
  if (entries.length === 1 && entries[0]?.[0] === "id") return auditValue(language, entries[0][1]);
  return entries
    .map(([key, inner]) => `${auditFieldLabel(language, key)}: ${auditValue(language, inner)}`)
    .join("; ");
};

/** Money fields (minor units, as the server records them) and where the record names their currency. */
const MONEY_FIELDS: Readonly<Record<string, readonly string[]>> = {
  amount: ["currency", "currencyCode"],
  balance: ["currency", "currencyCode"],
  openingBalance: ["currency", "currencyCode"],
  price: ["currency", "currencyCode"],
  unitPrice: ["currency", "currencyCode"],
  total: ["currency", "currencyCode"],
  budget: ["budgetCurrency", "currency", "currencyCode"],
  salary: ["salaryCurrency", "currency", "currencyCode"],
};

/** As dates.ts: Uzbek is written with the Russian grouping and comma (and browsers may lack uz data). */
const NUMBER_LOCALES: Record<Language, string> = { en: "en-GB", ru: "ru-RU", uz: "ru-RU" };

/** The currency's decimals (ISO 4217, as Intl knows them); 2 for a code it does not know. */
const minorDigits = (currency: string): number => {
  try {
    return (
      new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ??
      2
    );
  } catch {
    return 2;
  }
};

/**
 * An amount in minor units (an exact integer, as a string: amounts go beyond 2^53) in major units with
 * its currency, grouped as the language writes numbers: "90 071 992 547 409,93 UZS". Exact: no floats.
 */
export const formatMinorAmount = (language: Language, minor: unknown, currency: string): string => {
  const text = String(minor);
  if (!/^-?\d+$/.test(text)) return auditValue(language, minor);
  const digits = minorDigits(currency);
  const negative = text.startsWith("-");
  const magnitude = (negative ? text.slice(1) : text).padStart(digits + 1, "0");
  const whole = magnitude.slice(0, magnitude.length - digits);
  const fraction = magnitude.slice(magnitude.length - digits);
  const format = new Intl.NumberFormat(NUMBER_LOCALES[language]);
  const separator = format.formatToParts(1.5).find((part) => part.type === "decimal")?.value ?? ".";
  const number = `${format.format(BigInt(whole))}${digits > 0 ? `${separator}${fraction}` : ""}`;
  return `${negative ? "−" : ""}${number} ${currency}`;
};

/** Fields that hold another record's id: `accountId`, `createdBy`, `userId`… (not an entry's own `id`). */
const isReference = (key: string) => key !== "id" && (/Id$/.test(key) || key === "createdBy");

type NamedEntry = {
  userId: string | null;
  userEmail: string | null;
  entityId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** Names the server resolved for the ids this entry mentions (they win: they are current). */
  names?: Readonly<Record<string, string>>;
};

/**
 * The names the log itself knows for ids: each actor's email, and each record's name as an entry of it
 * recorded it (an account's creation names the account). References show these instead of the id.
 */
export const auditNames = (entries: readonly NamedEntry[]): Record<string, string> => {
  const names: Record<string, string> = {};
  for (const entry of entries) {
    if (entry.userId && entry.userEmail) names[entry.userId] = entry.userEmail;
    const name = entry.after?.name ?? entry.before?.name ?? entry.after?.email ?? entry.before?.email;
    if (entry.entityId && typeof name === "string" && name) names[entry.entityId] = name;
  }
  for (const entry of entries) Object.assign(names, entry.names);
  return names;
};

/** Recorded reasons (identifiers) in words. */
const AUDIT_REASON_LABELS: Labels = {
  en: {
    code_replayed: "the authorization code was presented again",
    refresh_reused: "an already used refresh token was presented again",
  },
  ru: {
    code_replayed: "код авторизации предъявлен повторно",
    refresh_reused: "уже использованный токен обновления предъявлен повторно",
  },
  uz: {
    code_replayed: "avtorizatsiya kodi qayta taqdim etildi",
    refresh_reused: "ishlatilgan yangilash tokeni qayta taqdim etildi",
  },
};

/**
 * One field of an entry as a person reads it: money in major units with the currency the record names
 * (the entry's before and after together: an update may record only the amount), else `auditValue`.
 */
export const auditFieldValue = (
  language: Language,
  key: string,
  value: unknown,
  record: Record<string, unknown>,
  names: Readonly<Record<string, string>> = {},
): string => {
  // A reference (an account, a user) by the name the log itself knows for it.
  if (typeof value === "string" && isReference(key) && names[value]) return names[value];
  if (key === "reason" && typeof value === "string" && AUDIT_REASON_LABELS[language][value])
    return AUDIT_REASON_LABELS[language][value];
  const currencyKey = MONEY_FIELDS[key]?.find((name) => typeof record[name] === "string");
  if (currencyKey && (typeof value === "string" || typeof value === "number" || typeof value === "bigint"))
    return formatMinorAmount(language, value, record[currencyKey] as string);
  return auditValue(language, value);
};
