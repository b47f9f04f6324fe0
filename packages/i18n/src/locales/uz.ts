import type { Messages } from "../messages";

// Uzbek in Latin script: o‘ and g‘ with U+2018, the tutuq belgisi (ma’lumot) with U+2019.
export const uz: Messages = {
  errors: {
    auth: {
      unauthenticated: "Tizimga kirishingiz kerak.",
      forbidden: "Bu amalni bajarish uchun huquqingiz yo‘q.",
      invalid_credentials: "Kirish ma’lumotlari noto‘g‘ri.",
      too_many_attempts: "Kirishga muvaffaqiyatsiz urinishlar juda ko‘p. Keyinroq qayta urinib ko‘ring.",
      csrf_required: "So‘rov JSON formatida yoki x-csrf-token sarlavhasi bilan yuborilishi kerak.",
      unsupported_scheme: "Avtorizatsiya sxemasi qo‘llab-quvvatlanmaydi. Bearer tokenidan foydalaning.",
      cannot_grant: "O‘zingizda yo‘q huquqlarni boshqalarga bera olmaysiz.",
    },
    validation: {
      invalid: "Kiritilgan ma’lumotlarda xato",
    },
    not_found: "Topilmadi.",
    user: {
      not_found: "Foydalanuvchi topilmadi.",
      email_taken: "Bu elektron pochta manzili allaqachon band.",
      unknown_role: "Kiritilgan ma’lumotlarda xato: {{field}} maydonida mavjud bo‘lmagan rollar ko‘rsatilgan",
      unknown_group:
        "Kiritilgan ma’lumotlarda xato: {{field}} maydonida mavjud bo‘lmagan guruhlar ko‘rsatilgan",
      cannot_delete_self: "O‘z hisob qaydnomangizni o‘chira olmaysiz.",
      fields_need_update_all:
        "Bu maydonlarni o‘zgartirish uchun barcha foydalanuvchilarni tahrirlash huquqi kerak.",
      role_not_assigned: "Foydalanuvchida bu rol yo‘q.",
    },
    account: {
      wrong_current_password: "Kiritilgan ma’lumotlarda xato: joriy parol noto‘g‘ri",
    },
    role: {
      not_found: "Rol topilmadi.",
      name_taken: "Bunday nomli rol allaqachon mavjud.",
      unknown_permission:
        "Kiritilgan ma’lumotlarda xato: {{field}} maydonida mavjud bo‘lmagan huquqlar ko‘rsatilgan",
      platform_permission:
        "Kiritilgan ma’lumotlarda xato: {{field}} maydonidagi huquqlarni faqat platforma tashkilotida berish mumkin",
      builtin: "O‘rnatilgan rollarni o‘zgartirish yoki o‘chirish mumkin emas.",
      permission_not_granted: "Rolda bu huquq yo‘q.",
    },
    group: {
      not_found: "Guruh topilmadi.",
      name_taken: "Bunday nomli guruh allaqachon mavjud.",
      unknown_role: "Kiritilgan ma’lumotlarda xato: {{field}} maydonida mavjud bo‘lmagan rollar ko‘rsatilgan",
      unknown_user:
        "Kiritilgan ma’lumotlarda xato: {{field}} maydonida mavjud bo‘lmagan foydalanuvchilar ko‘rsatilgan",
      user_not_member: "Foydalanuvchi bu guruh a’zosi emas.",
    },
    oidc: {
      client_exists: "Bunday client_id bilan mijoz allaqachon ro‘yxatdan o‘tgan.",
    },
    tenant: {
      domain_taken: "Bu domen boshqa tashkilot tomonidan band qilingan.",
      not_found: "Tashkilot topilmadi.",
      platform_cannot_deactivate: "Platforma tashkilotini faolsizlantirib bo‘lmaydi.",
    },
    currency: {
      exists: "Bu valyuta allaqachon mavjud.",
      not_found: "Valyuta topilmadi.",
      unknown:
        "Kiritilgan ma’lumotlarda xato: {{field}} maydonida noma’lum yoki faol bo‘lmagan valyutalar ko‘rsatilgan",
      in_use:
        "Pul hisoblari, qarzlar yoki tovarlar yuritilayotgan valyutani tashkilot valyutalaridan olib tashlab bo‘lmaydi.",
    },
    finance: {
      account_not_found: "Hisob topilmadi.",
      account_name_taken: "Bunday nomli hisob allaqachon mavjud.",
      account_negative: "Balans noldan past bo‘lganda overdraftni o‘chirib bo‘lmaydi.",
      account_in_use: "Hisobda operatsiyalar bor, uni o‘chirib bo‘lmaydi.",
      unknown_account: "Kiritilgan ma’lumotlarda xato: {{field}} bu tashkilotning hisobi emas",
      unknown_counterparty: "Kiritilgan ma’lumotlarda xato: {{field}} bu tashkilotning kontragenti emas",
      unknown_category: "Kiritilgan ma’lumotlarda xato: {{field}} bu tashkilotning toifasi emas",
      currency_not_selected: "Kiritilgan ma’lumotlarda xato: {{field}} tashkilot valyutalari qatorida yo‘q",
      currency_mismatch:
        "Kiritilgan ma’lumotlarda xato: {{field}} hisob valyutasi bilan bir xil bo‘lishi kerak",
      insufficient_balance: "Hisobda mablag‘ yetarli emas.",
      balance_out_of_range: "Hisob balansi ruxsat etilgan chegaradan chiqib ketadi.",
      payment_not_found: "Tushum topilmadi.",
      expense_not_found: "Xarajat topilmadi.",
      transfer_currency_mismatch:
        "Kiritilgan ma’lumotlarda xato: {{field}} manba hisob valyutasida bo‘lishi kerak (turli valyutalar uchun ayirboshlashdan foydalaning)",
      exchange_same_currency:
        "Kiritilgan ma’lumotlarda xato: {{field}} boshqa valyutada bo‘lishi kerak (bir valyuta ichida o‘tkazmadan foydalaning)",
      exchange_too_small:
        "Kiritilgan ma’lumotlarda xato: {{field}} kursga ko‘paytirilganda bir eng kichik birlikdan kam",
      exchange_out_of_range:
        "Kiritilgan ma’lumotlarda xato: {{field}} kursga ko‘paytirilganda ruxsat etilgan summadan oshadi",
      counterparty_not_found: "Kontragent topilmadi.",
      counterparty_in_use:
        "Kontragentga tushumlar, xarajatlar yoki qarzlar bog‘langan; uni o‘chirib bo‘lmaydi.",
      payment_category_not_found: "Tushumlar toifasi topilmadi.",
      expense_category_not_found: "Xarajatlar toifasi topilmadi.",
      unknown_parent_category:
        "Kiritilgan ma’lumotlarda xato: {{field}} bu tashkilotning shu turdagi toifasi emas",
      category_cycle:
        "Kiritilgan ma’lumotlarda xato: {{field}} toifaning o‘zi yoki uning quyi toifasi bo‘lishi mumkin emas",
      category_has_children: "Toifaning quyi toifalari bor; avval ularni ko‘chiring yoki o‘chiring.",
      category_in_use: "Toifa ishlatilmoqda, uni o‘chirib bo‘lmaydi.",
      debt_not_found: "Qarz topilmadi.",
      debt_already_settled: "Qarz allaqachon to‘langan.",
      debt_written_off: "Qarz hisobdan chiqarilgan.",
      debt_has_settlements:
        "Qarzning bir qismi to‘langan: uning turi, kontragenti va valyutasini endi o‘zgartirib bo‘lmaydi.",
      debt_amount_below_settled: "Summa allaqachon to‘langan summadan ko‘p bo‘lishi kerak.",
      debt_over_settlement: "Summa qarzning qoldig‘idan ko‘p.",
      debt_currency_mismatch:
        "Kiritilgan ma’lumotlarda xato: {{field}} qarz valyutasidagi hisob bo‘lishi kerak",
      debt_settlement_not_found: "To‘lov topilmadi.",
      debt_not_deletable: "Faqat to‘lov qilinmagan va hisobdan chiqarilmagan qarzni o‘chirish mumkin.",
      document_settles_debt:
        "Hujjat qarzni to‘laydi: uni o‘chirish yoki summasini, hisobini yoki kontragentini o‘zgartirish uchun qarzdagi to‘lovni bekor qiling.",
      inventory_item_not_found: "Tovar topilmadi.",
      inventory_sku_taken: "Bunday artikulli tovar allaqachon mavjud.",
      inventory_in_stock: "Tovar hali omborda bor; o‘chirishdan oldin uni chiqim qiling yoki nolga tuzating.",
      insufficient_stock: "Omborda tovar yetarli emas.",
      quantity_out_of_range: "Tovar miqdori ruxsat etilgan chegaradan chiqib ketadi.",
    },
    upload: {
      too_large: "Kiritilgan ma’lumotlarda xato: fayl hajmi juda katta",
      not_found: "Fayl topilmadi.",
      content_missing: "Fayl tarkibi topilmadi.",
      not_multipart: "Kiritilgan ma’lumotlarda xato: so‘rov multipart/form-data formatida bo‘lishi kerak",
      no_file: "Kiritilgan ma’lumotlarda xato: yuklash uchun faylni tanlang",
    },
    route: {
      not_found: "So‘ralgan manzil mavjud emas.",
    },
    request: {
      invalid_json: "Kiritilgan ma’lumotlarda xato: so‘rov tanasi yaroqli JSON emas",
      empty_body: "Kiritilgan ma’lumotlarda xato: so‘rov tanasi bo‘sh",
      unsupported_media_type: "Kontent turi qo‘llab-quvvatlanmaydi.",
      too_large: "So‘rov tanasi juda katta.",
      invalid_content_length: "So‘rov tanasining hajmi Content-Length sarlavhasiga mos kelmadi.",
      bad_url: "URL noto‘g‘ri.",
      invalid: "So‘rov noto‘g‘ri.",
    },
    conflict: "So‘rov ma’lumotlarning joriy holatiga zid.",
    business_rule: "Amal biznes qoidasini buzadi.",
    rate_limited: "So‘rovlar juda ko‘p. Keyinroq qayta urinib ko‘ring.",
    internal: "Serverda ichki xato yuz berdi.",
    unavailable: "Xizmat vaqtincha ishlamayapti. Keyinroq qayta urinib ko‘ring.",
  },
  validation: {
    field: "Kiritilgan ma’lumotlarda xato: {{field}} maydoni {{problem}}",
    problem: {
      required: "to‘ldirilishi shart",
      invalid: "noto‘g‘ri to‘ldirilgan",
    },
  },
  export: {
    users: {
      sheet: "Foydalanuvchilar",
      email: "Elektron pochta",
      firstName: "Ism",
      lastName: "Familiya",
      language: "Til",
      active: "Faol",
      roles: "Rollar",
      groups: "Guruhlar",
      createdAt: "Yaratilgan",
      updatedAt: "O‘zgartirilgan",
    },
    finance: {
      sheets: {
        payments: "Tushumlar",
        expenses: "Xarajatlar",
        accounts: "Hisoblar",
        transactions: "Operatsiyalar",
        incomeStatement: "Foyda va zarar",
        cashflow: "Pul oqimi",
        accountStatement: "Hisob ko‘chirmasi",
      },
      columns: {
        date: "Sana",
        account: "Hisob",
        currency: "Valyuta",
        amount: "Summa",
        counterparty: "Kontragent",
        category: "Toifa",
        comment: "Izoh",
        createdAt: "Yaratilgan",
        name: "Nomi",
        number: "Raqami",
        balance: "Qoldiq",
        allowOverdraft: "Overdraftga ruxsat",
        description: "Tavsif",
        type: "Turi",
        change: "O‘zgarish",
        destinationAmount: "Olingan summa",
        exchangeRate: "Kurs",
        counterAccount: "Boshqa hisob",
        section: "Bo‘lim",
        month: "Oy",
        period: "Davr",
        openingBalance: "Boshlang‘ich qoldiq",
        closingBalance: "Yakuniy qoldiq",
        inflows: "Kirim",
        outflows: "Chiqim",
        income: "Daromadlar",
        expense: "Xarajatlar",
        transfersIn: "Kiruvchi o‘tkazmalar",
        transfersOut: "Chiquvchi o‘tkazmalar",
        exchangesIn: "Ayirboshlash: olingan",
        exchangesOut: "Ayirboshlash: berilgan",
        runningBalance: "Keyingi qoldiq",
      },
      types: {
        income: "Daromad",
        expense: "Xarajat",
        transfer: "O‘tkazma",
        exchange: "Ayirboshlash",
      },
      rows: {
        revenue: "Tushum",
        expenses: "Xarajatlar",
        netIncome: "Sof foyda",
        uncategorized: "Toifasiz",
        total: "Jami",
        opening: "Boshlang‘ich qoldiq",
        closing: "Yakuniy qoldiq",
      },
    },
  },
  login: {
    title: "Kirish — Hisob",
    heading: "Hisob tizimiga kirish",
    intro: "Ish elektron pochtangiz va parolingizni kiriting.",
    email: "Elektron pochta",
    password: "Parol",
    submit: "Kirish",
    language: "Til",
    error: {
      invalid_credentials: "Elektron pochta yoki parol noto‘g‘ri",
      too_many_attempts:
        "Muvaffaqiyatsiz urinishlar juda ko‘p. {{minutes}} daqiqadan so‘ng qayta urinib ko‘ring.",
      missing_fields: "Elektron pochta va parolni kiriting.",
      csrf: "Shaklning muddati o‘tgan yoki u boshqa saytdan yuborilgan. Qaytadan urinib ko‘ring.",
    },
  },
  logout: {
    title: "Chiqish — Hisob",
    heading: "Hisob tizimidan chiqish",
    intro: "Ushbu qurilmada tizimdan chiqmoqchimisiz?",
    submit: "Chiqish",
  },
};
