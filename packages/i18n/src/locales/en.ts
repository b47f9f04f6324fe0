/**
 * English: the source language. ru.ts and uz.ts must have exactly these keys (checked by the type
 * `Messages` and by a unit test). `errors.<reason>` is keyed by AppError reasons; `{{name}}` are
 * interpolation placeholders and must appear in every language.
 */
export const en = {
  errors: {
    auth: {
      unauthenticated: "You need to sign in.",
      forbidden: "You do not have permission to do this.",
      invalid_credentials: "Invalid credentials.",
      too_many_attempts: "Too many failed sign-in attempts. Try again later.",
      csrf_required: "This request must be sent as JSON or with the x-csrf-token header.",
      unsupported_scheme: "Unsupported authorization scheme. Use a Bearer token.",
      cannot_grant: "You cannot grant permissions you do not hold yourself.",
    },
    validation: {
      invalid: "validation error",
    },
    not_found: "Not found.",
    user: {
      not_found: "User not found.",
      email_taken: "This email address is already in use.",
      unknown_role: "validation error: {{field}} has roles that do not exist",
      unknown_group: "validation error: {{field}} has groups that do not exist",
      cannot_delete_self: "You cannot delete your own account.",
      fields_need_update_all: "Changing these fields needs permission to edit all users.",
      role_not_assigned: "The user does not have this role.",
    },
    account: {
      wrong_current_password: "validation error: the current password is wrong",
    },
    role: {
      not_found: "Role not found.",
      name_taken: "A role with this name already exists.",
      unknown_permission: "validation error: {{field}} has permissions that do not exist",
      platform_permission: "validation error: {{field}} may be granted only in the platform organization",
      builtin: "Built-in roles cannot be changed or deleted.",
      permission_not_granted: "The role does not hold this permission.",
    },
    group: {
      not_found: "Group not found.",
      name_taken: "A group with this name already exists.",
      unknown_role: "validation error: {{field}} has roles that do not exist",
      unknown_user: "validation error: {{field}} has users that do not exist",
      user_not_member: "The user is not a member of this group.",
    },
    oidc: {
      client_exists: "A client with this client_id is already registered.",
    },
    tenant: {
      domain_taken: "This domain is already used by another organization.",
      not_found: "Organization not found.",
      platform_cannot_deactivate: "The platform organization cannot be deactivated.",
    },
    currency: {
      exists: "This currency already exists.",
      not_found: "Currency not found.",
      unknown: "validation error: {{field}} has unknown or inactive currencies",
      in_use: "A currency that money accounts use cannot be removed from the organization's currencies.",
    },
    finance: {
      account_not_found: "Account not found.",
      account_name_taken: "An account with this name already exists.",
      account_negative: "Overdraft cannot be turned off while the balance is below zero.",
      account_in_use: "The account has transactions and cannot be deleted.",
      unknown_account: "validation error: {{field}} is not an account of this organization",
      unknown_counterparty: "validation error: {{field}} is not a counterparty of this organization",
      unknown_category: "validation error: {{field}} is not a category of this organization",
      currency_not_selected: "validation error: {{field}} is not one of the organization's currencies",
      currency_mismatch: "validation error: {{field}} must be the account's currency",
      insufficient_balance: "Insufficient balance on the account.",
      balance_out_of_range: "The account's balance would leave the range a balance can hold.",
      payment_not_found: "Payment not found.",
      expense_not_found: "Expense not found.",
      transfer_currency_mismatch:
        "validation error: {{field}} must be in the origin account's currency (use an exchange between currencies)",
      exchange_same_currency:
        "validation error: {{field}} must be in another currency (use a transfer within one currency)",
      exchange_too_small: "validation error: {{field}} times the rate is less than one minor unit",
      exchange_out_of_range: "validation error: {{field}} times the rate is beyond what an amount can hold",
    },
    upload: {
      too_large: "validation error: the file is too large",
      not_found: "File not found.",
      content_missing: "The file's content is missing.",
      not_multipart: "validation error: the request must be multipart/form-data",
      no_file: "validation error: choose a file to upload",
    },
    route: {
      not_found: "The requested address does not exist.",
    },
    request: {
      invalid_json: "validation error: request body is not valid JSON",
      empty_body: "validation error: request body is empty",
      unsupported_media_type: "Unsupported media type.",
      too_large: "Request body is too large.",
      invalid_content_length: "Request body size did not match Content-Length.",
      bad_url: "Invalid URL.",
      invalid: "Bad request.",
    },
    conflict: "The request conflicts with the current state of the data.",
    business_rule: "The operation breaks a business rule.",
    rate_limited: "Too many requests. Try again later.",
    internal: "Internal server error.",
    unavailable: "The service is temporarily unavailable. Try again later.",
  },
  validation: {
    /** The field-naming form of a VALIDATION_ERROR message; `problem` is one of `validation.problem.*`. */
    field: "validation error: {{field}} {{problem}}",
    problem: {
      required: "is required",
      invalid: "is invalid",
    },
  },
  export: {
    users: {
      sheet: "Users",
      email: "Email",
      firstName: "First name",
      lastName: "Last name",
      language: "Language",
      active: "Active",
      roles: "Roles",
      groups: "Groups",
      createdAt: "Created",
      updatedAt: "Updated",
    },
  },
  login: {
    title: "Sign in — Hisob",
    heading: "Sign in to Hisob",
    intro: "Enter your work email and password.",
    email: "Email",
    password: "Password",
    submit: "Sign in",
    language: "Language",
    error: {
      invalid_credentials: "Invalid email or password",
      too_many_attempts: "Too many failed attempts. Try again in {{minutes}} min.",
      missing_fields: "Enter your email and password.",
      csrf: "The form has expired or was sent from another site. Please try again.",
    },
  },
  logout: {
    title: "Sign out — Hisob",
    heading: "Sign out of Hisob",
    intro: "Do you want to sign out on this device?",
    submit: "Sign out",
  },
};
