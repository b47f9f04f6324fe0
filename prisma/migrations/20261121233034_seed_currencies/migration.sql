-- The global currency list starts with the currencies our users trade in (ISO 4217).
-- The platform admin adds more through the API; tenants choose theirs from this list.
INSERT INTO currencies (code, name, symbol, minor_units) VALUES
  ('UZS', 'Uzbekistani som', 'soʻm', 2),
  ('USD', 'US dollar', '$', 2),
  ('EUR', 'Euro', '€', 2),
  ('RUB', 'Russian ruble', '₽', 2),
  ('KZT', 'Kazakhstani tenge', '₸', 2),
  ('GBP', 'Pound sterling', '£', 2),
  ('CNY', 'Chinese yuan', '¥', 2),
  ('TRY', 'Turkish lira', '₺', 2),
  ('KRW', 'South Korean won', '₩', 0),
  ('JPY', 'Japanese yen', '¥', 0),
  ('AED', 'UAE dirham', 'د.إ', 2),
  ('KGS', 'Kyrgyzstani som', 'сом', 2),
  ('TJS', 'Tajikistani somoni', 'SM', 2)
ON CONFLICT (code) DO NOTHING;
