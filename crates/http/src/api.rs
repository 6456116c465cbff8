//! The API's route table: each route is registered once, with its documentation, so
//! the router and `/openapi.json` cannot drift apart.

use axum::Router;
use axum::handler::Handler;
use axum::routing::MethodRouter;
use utoipa::openapi::path::{HttpMethod, OperationBuilder, ParameterBuilder, ParameterIn};
use utoipa::openapi::{
    ContentBuilder, InfoBuilder, ObjectBuilder, OpenApi, OpenApiBuilder, Paths, Required,
    ResponseBuilder, Type,
};

use crate::routing::API_PREFIX;
use crate::state::AppState;

/// What `/openapi.json` says about one route.
pub struct Doc {
    tag: &'static str,
    summary: &'static str,
    params: Vec<(String, String)>,
    returns: String,
}

impl Doc {
    pub fn new(tag: &'static str, summary: &'static str) -> Self {
        Doc {
            tag,
            summary,
            params: Vec::new(),
            returns: String::new(),
        }
    }

    /// Fields nested under the resource name, e.g. `location[name]`.
    pub fn form(mut self, resource: &str, fields: &[(&str, &str)]) -> Self {
        self.params.extend(
            fields
                .iter()
                .map(|(f, d)| (format!("{resource}[{f}]"), (*d).to_owned())),
        );
        self
    }

    pub fn query(mut self, params: &[(&str, &str)]) -> Self {
        self.params.extend(
            params
                .iter()
                .map(|(n, d)| ((*n).to_owned(), (*d).to_owned())),
        );
        self
    }

    pub fn returns(mut self, singular: &str) -> Self {
        self.returns = format!("{{\"{singular}\": {{...}}}}");
        self
    }

    pub fn returns_page(mut self, plural: &str) -> Self {
        self.returns = format!("{{\"{plural}\": [...], \"total_pages\": n, \"current_page\": n}}");
        self
    }
}

struct Documented {
    path: String,
    methods: Vec<HttpMethod>,
    doc: Doc,
}

pub struct Api {
    router: Router<AppState>,
    documented: Vec<Documented>,
}

impl Default for Api {
    fn default() -> Self {
        Api {
            router: Router::new(),
            documented: Vec::new(),
        }
    }
}

/// The methods of one path. Built like axum's `MethodRouter` (`get(list).post(create)`),
/// but an update is registered with `put_or_patch`, which answers both: the hosted
/// service routes updates and state actions like a Rails application, and its clients
/// send either. There is no way to register PUT or PATCH alone, so no route can forget
/// one of them, and the methods documented are exactly the methods served.
pub struct Methods {
    router: MethodRouter<AppState>,
    methods: Vec<HttpMethod>,
}

/// A path answering GET with `handler`.
pub fn get<H: Handler<T, AppState>, T: 'static>(handler: H) -> Methods {
    Methods::new().get(handler)
}

/// A path answering POST with `handler`.
pub fn post<H: Handler<T, AppState>, T: 'static>(handler: H) -> Methods {
    Methods::new().post(handler)
}

/// A path answering PUT and PATCH alike with `handler` (an update or a state action).
pub fn put_or_patch<H: Handler<T, AppState>, T: 'static>(handler: H) -> Methods {
    Methods::new().put_or_patch(handler)
}

impl Methods {
    fn new() -> Self {
        Methods {
            router: MethodRouter::new(),
            methods: Vec::new(),
        }
    }

    pub fn get<H: Handler<T, AppState>, T: 'static>(mut self, handler: H) -> Self {
        self.router = self.router.get(handler);
        self.methods.push(HttpMethod::Get);
        self
    }

    pub fn post<H: Handler<T, AppState>, T: 'static>(mut self, handler: H) -> Self {
        self.router = self.router.post(handler);
        self.methods.push(HttpMethod::Post);
        self
    }

    /// An update or a state action: PUT and PATCH run the same handler.
    pub fn put_or_patch<H: Handler<T, AppState>, T: 'static>(mut self, handler: H) -> Self {
        self.router = self.router.put(handler.clone()).patch(handler);
        self.methods.extend([HttpMethod::Put, HttpMethod::Patch]);
        self
    }

    pub fn delete<H: Handler<T, AppState>, T: 'static>(mut self, handler: H) -> Self {
        self.router = self.router.delete(handler);
        self.methods.push(HttpMethod::Delete);
        self
    }
}

impl Api {
    /// Registers `path` (without `.api`) for `methods`.
    pub fn route(mut self, path: &str, methods: Methods, doc: Doc) -> Self {
        self.documented.push(Documented {
            path: format!("{path}.api"),
            methods: methods.methods,
            doc,
        });
        self.router = self
            .router
            .route(&format!("{API_PREFIX}{path}"), methods.router);
        self
    }

    pub fn into_parts(self) -> (Router<AppState>, OpenApi) {
        let openapi = document(&self.documented);
        (self.router, openapi)
    }
}

fn document(routes: &[Documented]) -> OpenApi {
    let mut paths = Paths::new();
    for route in routes {
        let mut op = OperationBuilder::new()
            .tag(route.doc.tag)
            .summary(Some(route.doc.summary))
            .description(Some(
                "Send the company token in the `token` header. Parameters may be sent in the query string or the body \
                 (form, multipart or JSON); the body wins.",
            ))
            .response(
                "200",
                ResponseBuilder::new()
                    .description(if route.doc.returns.is_empty() { "OK".to_owned() } else { route.doc.returns.clone() })
                    .content("application/json", ContentBuilder::new().schema(Some(ObjectBuilder::new())).build()),
            )
            .response("401", ResponseBuilder::new().description("Token missing or not valid").build())
            .response("403", ResponseBuilder::new().description("The company's API is disabled").build())
            .response("404", ResponseBuilder::new().description("No such record in this company").build())
            .response("422", ResponseBuilder::new().description("Validation failed; `errors` names each field").build())
            .response("429", ResponseBuilder::new().description("Rate limit exceeded; see Retry-After").build());
        for segment in route.path.split('/') {
            if let Some(name) = segment.strip_prefix('{').and_then(|s| s.split('}').next()) {
                op = op.parameter(
                    ParameterBuilder::new()
                        .name(name)
                        .parameter_in(ParameterIn::Path)
                        .required(Required::True)
                        .schema(Some(ObjectBuilder::new().schema_type(Type::Integer))),
                );
            }
        }
        for (name, description) in &route.doc.params {
            op = op.parameter(
                ParameterBuilder::new()
                    .name(name)
                    .parameter_in(ParameterIn::Query)
                    .required(Required::False)
                    .description(Some(description))
                    .schema(Some(ObjectBuilder::new().schema_type(Type::String))),
            );
        }
        paths.add_path_operation(route.path.clone(), route.methods.clone(), op.build());
    }
    let mut paths = paths;
    paths.add_path_operation(
        "/healthz",
        vec![HttpMethod::Get],
        OperationBuilder::new()
            .tag("Operations")
            .summary(Some("Liveness and database check (no token)"))
            .response(
                "200",
                ResponseBuilder::new()
                    .description("{\"status\": \"ok\"}")
                    .build(),
            )
            .build(),
    );
    OpenApiBuilder::new()
        .info(
            InfoBuilder::new()
                .title("rentrack")
                .version(env!("CARGO_PKG_VERSION"))
                .description(Some("Equipment rental and asset tracking. Every API path ends in `.api`. See docs/api.md for the conventions."))
                .build(),
        )
        .paths(paths)
        .build()
}
