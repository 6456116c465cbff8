//! `#[derive(LiteRow)]` reads a record from a row of the SQLite path (rusqlite) and
//! `#[derive(PgRow)]` from a PostgreSQL row (sqlx's `FromRow`, and tokio-postgres's row
//! through `store::pg_rows::PgRecord`). Each field is read by its
//! name, through `store::lite::Column` and `store::pg_rows::column`; both understand the
//! two `sqlx` field attributes the store uses, `flatten` (the field is itself a row type)
//! and `default` (a column the statement may leave out).

use proc_macro::TokenStream;
use proc_macro2::TokenStream as TokenStream2;
use quote::quote;
use syn::{Data, DeriveInput, Fields, parse_macro_input};

#[proc_macro_derive(LiteRow, attributes(sqlx))]
pub fn derive_lite_row(input: TokenStream) -> TokenStream {
    derive(input, expand)
}

/// `sqlx::FromRow` for PostgreSQL rows, each field read through
/// `store::pg_rows::column` (which finds a column from where the last one ended rather
/// than through sqlx's hashed lookup of every name), and `store::pg_rows::PgRecord` for
/// tokio-postgres rows (the statements outside transactions), through `pg_column`.
#[proc_macro_derive(PgRow, attributes(sqlx))]
pub fn derive_pg_row(input: TokenStream) -> TokenStream {
    derive(input, expand_pg)
}

/// The impl `expand` writes for the struct `input`, or the error it found.
fn derive(
    input: TokenStream,
    expand: fn(&DeriveInput) -> syn::Result<TokenStream2>,
) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match expand(&input) {
        Ok(tokens) => tokens.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

#[derive(Default)]
struct FieldOptions {
    flatten: bool,
    default: bool,
}

fn options(field: &syn::Field) -> syn::Result<FieldOptions> {
    let mut found = FieldOptions::default();
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("sqlx")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("flatten") {
                found.flatten = true;
                Ok(())
            } else if meta.path.is_ident("default") {
                found.default = true;
                Ok(())
            } else {
                Err(meta.error("a row type knows only #[sqlx(flatten)] and #[sqlx(default)]"))
            }
        })?;
    }
    Ok(found)
}

/// The named fields of a struct.
fn named_fields(input: &DeriveInput) -> syn::Result<&syn::FieldsNamed> {
    let Data::Struct(data) = &input.data else {
        return Err(syn::Error::new_spanned(input, "a row type is a struct"));
    };
    let Fields::Named(fields) = &data.fields else {
        return Err(syn::Error::new_spanned(
            input,
            "a row type has named fields",
        ));
    };
    Ok(fields)
}

/// A field's column name (`r#type` reads `type`).
fn column_name(ident: &syn::Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#").unwrap_or(&name).to_owned()
}

/// Each field's read (`field: <expression>`) and the impl's where-clause: the type's own
/// predicates and, for a generic type, each field's bound. `read` gives a field's bound
/// and the expression that reads it, from its type, column name and options.
fn reads(
    input: &DeriveInput,
    read: impl Fn(&syn::Type, &str, &FieldOptions) -> (TokenStream2, TokenStream2),
) -> syn::Result<(Vec<TokenStream2>, Vec<TokenStream2>)> {
    let mut reads = Vec::new();
    let mut bounds = Vec::new();
    for field in &named_fields(input)?.named {
        let ident = field.ident.as_ref().expect("named field");
        let (bound, expr) = read(&field.ty, &column_name(ident), &options(field)?);
        bounds.push(bound);
        reads.push(quote!(#ident: #expr));
    }
    let mut predicates: Vec<TokenStream2> = input
        .generics
        .where_clause
        .as_ref()
        .map(|w| w.predicates.iter().map(|p| quote!(#p)).collect())
        .unwrap_or_default();
    if !input.generics.params.is_empty() {
        predicates.extend(bounds);
    }
    Ok((reads, predicates))
}

fn expand_pg(input: &DeriveInput) -> syn::Result<TokenStream2> {
    let (sqlx_reads, predicates) = reads(input, |ty, name, opts| {
        let decode = quote!(::sqlx::Decode<'r, ::sqlx::Postgres> + ::sqlx::Type<::sqlx::Postgres>);
        if opts.flatten {
            let row_type = quote!(::sqlx::FromRow<'r, ::sqlx::postgres::PgRow>);
            (
                quote!(#ty: #row_type),
                quote!(<#ty as #row_type>::from_row(row)?),
            )
        } else if opts.default {
            (
                quote!(#ty: #decode + ::core::default::Default),
                quote!(crate::pg_rows::column_or_default(row, #name)?),
            )
        } else {
            (
                quote!(#ty: #decode),
                quote!(crate::pg_rows::column(row, #name)?),
            )
        }
    })?;
    let (pg_reads, pg_predicates) = reads(input, |ty, name, opts| {
        if opts.flatten {
            (
                quote!(#ty: crate::pg_rows::PgRecord),
                quote!(<#ty as crate::pg_rows::PgRecord>::from_pg(row)?),
            )
        } else if opts.default {
            (
                quote!(#ty: crate::pg_rows::PgColumn + ::core::default::Default),
                quote!(crate::pg_rows::pg_column_or_default(row, #name)?),
            )
        } else {
            (
                quote!(#ty: crate::pg_rows::PgColumn),
                quote!(crate::pg_rows::pg_column(row, #name)?),
            )
        }
    })?;
    let ident = &input.ident;
    let mut generics = input.generics.clone();
    generics.params.insert(0, syn::parse_quote!('r));
    let (impl_generics, _, _) = generics.split_for_impl();
    let (own_impl_generics, ty_generics, _) = input.generics.split_for_impl();
    Ok(quote! {
        impl #impl_generics ::sqlx::FromRow<'r, ::sqlx::postgres::PgRow> for #ident #ty_generics
        where #(#predicates,)*
        {
            fn from_row(row: &'r ::sqlx::postgres::PgRow) -> ::core::result::Result<Self, ::sqlx::Error> {
                ::core::result::Result::Ok(#ident { #(#sqlx_reads,)* })
            }
        }

        impl #own_impl_generics crate::pg_rows::PgRecord for #ident #ty_generics
        where #(#pg_predicates,)*
        {
            fn from_pg(row: &::tokio_postgres::Row) -> ::core::result::Result<Self, ::sqlx::Error> {
                ::core::result::Result::Ok(#ident { #(#pg_reads,)* })
            }
        }
    })
}

fn expand(input: &DeriveInput) -> syn::Result<TokenStream2> {
    let (reads, predicates) = reads(input, |ty, name, opts| {
        if opts.flatten {
            (
                quote!(#ty: crate::lite::LiteRow),
                quote!(<#ty as crate::lite::LiteRow>::read(row)?),
            )
        } else if opts.default {
            (
                quote!(#ty: crate::lite::Column + ::core::default::Default),
                quote!(crate::lite::column_or_default(row, #name)?),
            )
        } else {
            (
                quote!(#ty: crate::lite::Column),
                quote!(crate::lite::column(row, #name)?),
            )
        }
    })?;
    let ident = &input.ident;
    let (impl_generics, ty_generics, _) = input.generics.split_for_impl();
    Ok(quote! {
        impl #impl_generics crate::lite::LiteRow for #ident #ty_generics
        where #(#predicates,)*
        {
            fn read(row: &crate::lite::Cells<'_, '_>) -> ::rusqlite::Result<Self> {
                ::core::result::Result::Ok(#ident { #(#reads,)* })
            }
        }
    })
}
