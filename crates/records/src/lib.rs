//! `#[derive(Row)]` reads a store record from a row of either database, each field by
//! its column name: from a SQLite row (rusqlite) through `engine::sqlite::Column`, and
//! from a PostgreSQL row (tokio-postgres) through `engine::pg_rows::PgColumn`. Two
//! field attributes: `#[row(flatten)]` (the field is itself a row type) and
//! `#[row(default)]` (a column the statement may leave out).

use proc_macro::TokenStream;
use proc_macro2::TokenStream as TokenStream2;
use quote::quote;
use syn::{Data, DeriveInput, Fields, parse_macro_input};

#[proc_macro_derive(Row, attributes(row))]
pub fn derive_row(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match (expand_lite(&input), expand_pg(&input)) {
        (Ok(lite), Ok(pg)) => quote!(#lite #pg).into(),
        (Err(e), _) | (_, Err(e)) => e.to_compile_error().into(),
    }
}

#[derive(Default)]
struct FieldOptions {
    flatten: bool,
    default: bool,
}

fn options(field: &syn::Field) -> syn::Result<FieldOptions> {
    let mut found = FieldOptions::default();
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("row")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("flatten") {
                found.flatten = true;
                Ok(())
            } else if meta.path.is_ident("default") {
                found.default = true;
                Ok(())
            } else {
                Err(meta.error("a row type knows only #[row(flatten)] and #[row(default)]"))
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
    let (reads, predicates) = reads(input, |ty, name, opts| {
        if opts.flatten {
            (
                quote!(#ty: crate::engine::pg_rows::PgRecord),
                quote!(<#ty as crate::engine::pg_rows::PgRecord>::from_pg(row)?),
            )
        } else if opts.default {
            (
                quote!(#ty: crate::engine::pg_rows::PgColumn + ::core::default::Default),
                quote!(crate::engine::pg_rows::column_or_default(row, #name)?),
            )
        } else {
            (
                quote!(#ty: crate::engine::pg_rows::PgColumn),
                quote!(crate::engine::pg_rows::column(row, #name)?),
            )
        }
    })?;
    let ident = &input.ident;
    let (impl_generics, ty_generics, _) = input.generics.split_for_impl();
    Ok(quote! {
        impl #impl_generics crate::engine::pg_rows::PgRecord for #ident #ty_generics
        where #(#predicates,)*
        {
            fn from_pg(row: &::tokio_postgres::Row) -> ::core::result::Result<Self, crate::engine::DbError> {
                ::core::result::Result::Ok(#ident { #(#reads,)* })
            }
        }
    })
}

fn expand_lite(input: &DeriveInput) -> syn::Result<TokenStream2> {
    let (reads, predicates) = reads(input, |ty, name, opts| {
        if opts.flatten {
            (
                quote!(#ty: crate::engine::sqlite::LiteRow),
                quote!(<#ty as crate::engine::sqlite::LiteRow>::read(row)?),
            )
        } else if opts.default {
            (
                quote!(#ty: crate::engine::sqlite::Column + ::core::default::Default),
                quote!(crate::engine::sqlite::column_or_default(row, #name)?),
            )
        } else {
            (
                quote!(#ty: crate::engine::sqlite::Column),
                quote!(crate::engine::sqlite::column(row, #name)?),
            )
        }
    })?;
    let ident = &input.ident;
    let (impl_generics, ty_generics, _) = input.generics.split_for_impl();
    Ok(quote! {
        impl #impl_generics crate::engine::sqlite::LiteRow for #ident #ty_generics
        where #(#predicates,)*
        {
            fn read(row: &crate::engine::sqlite::Cells<'_, '_>) -> ::rusqlite::Result<Self> {
                ::core::result::Result::Ok(#ident { #(#reads,)* })
            }
        }
    })
}
